import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ioError, SshError } from '../errors.ts';

/** Key and certificate files are a few kilobytes; anything much larger is not one. */
export const MAX_KEY_FILE_BYTES = 64 * 1024;

/** A small text file a person chose (a .pub, a certificate): regular, and at most `maxBytes`. */
export async function readSmallFile(file: string, maxBytes: number): Promise<string> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO someone named x.pub must not hang; it is refused below.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw ioError('read', file, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new SshError('not-a-file', `${file} is not a regular file`);
    if (info.size > maxBytes)
      throw new SshError(
        'file-too-large',
        `${file} is ${info.size} bytes; a key or certificate file is at most ${maxBytes}`,
      );
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof SshError) throw error;
    throw ioError('read', file, error);
  } finally {
    await handle.close();
  }
}
