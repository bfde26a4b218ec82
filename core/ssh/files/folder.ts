/** The folder key files go in, made when missing, and the paths directly inside it. */
import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { errnoOf, ioError, SshError } from '../errors.ts';

/** The folder, made (0700, as ssh wants ~/.ssh) when missing; refused when it is not a folder. */
export async function prepareFolder(folder: string): Promise<string> {
  const resolved = path.resolve(folder);
  try {
    const info = await stat(resolved);
    if (!info.isDirectory()) throw new SshError('not-a-folder', `${resolved} is not a folder`);
    return resolved;
  } catch (error) {
    if (error instanceof SshError) throw error;
    if (errnoOf(error) !== 'ENOENT') throw ioError('open the folder', resolved, error);
  }
  try {
    await mkdir(resolved, { recursive: true, mode: 0o700 });
    await chmod(resolved, 0o700);
  } catch (error) {
    throw ioError('create the folder', resolved, error);
  }
  return resolved;
}

/** `folder/fileName`, refused unless it is directly inside `folder`. */
export function pathIn(folder: string, fileName: string): string {
  const target = path.resolve(folder, fileName);
  if (path.dirname(target) !== path.resolve(folder) || path.basename(target) !== fileName)
    throw new SshError('outside-folder', `"${fileName}" would lead outside ${folder}`);
  return target;
}
