import { parseSnapshot, type SnapshotDocument } from '../../shared/snapshot/document.ts';
import { AppError } from '../errors.ts';

/** What editors on Windows put first in a UTF-8 file: not part of the JSON. */
const BYTE_ORDER_MARK = '\uFEFF';

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
      `${fileName} is not JSON: ${(error as Error).message}`,
      'text',
    );
  }
  try {
    return parseSnapshot(value);
  } catch (error) {
    throw new AppError('SNAPSHOT_INVALID', `${fileName}: ${(error as Error).message}`, 'text');
  }
}
