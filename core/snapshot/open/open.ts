import { escapeControls } from '../../../shared/app/printable.ts';
import { parseSnapshot, type SnapshotDocument } from '../../../shared/app/snapshot-document.ts';
import { AppError } from '../../errors.ts';

/** What editors on Windows put first in a UTF-8 file: not part of the JSON. */
const BYTE_ORDER_MARK = '\uFEFF';

/** Deeper than any resource of the API nests: the walks over fields would run out of stack. */
const MAX_DEPTH = 64;

/** The path of the first value nested deeper than MAX_DEPTH, walked without recursion. */
function tooDeep(value: unknown): string | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.path.length >= MAX_DEPTH) return next.path.slice(0, 6).join('.');
    for (const [key, item] of Object.entries(next.value))
      stack.push({ value: item, path: [...next.path, key] });
  }
  return undefined;
}

/**
 * The snapshot a file's text holds, or a one-line refusal naming the file and the first field
 * that is wrong.
 */
export function openSnapshot(fileName: string, text: string): SnapshotDocument {
  const json = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new AppError(
      'SNAPSHOT_NOT_JSON',
      `${fileName} is not JSON: ${escapeControls((error as Error).message)}`,
      'text',
    );
  }
  const deep = tooDeep(value);
  if (deep !== undefined)
    throw new AppError(
      'SNAPSHOT_INVALID',
      `${fileName}: ${deep}… is nested more than ${MAX_DEPTH} levels deep`,
      'text',
    );
  try {
    return parseSnapshot(value);
  } catch (error) {
    const message = escapeControls((error as Error).message);
    throw new AppError('SNAPSHOT_INVALID', `${fileName}: ${message}`, 'text');
  }
}
