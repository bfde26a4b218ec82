import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** What reading a small file of ours found: its text, nothing there, or why it was not read. */
export type SmallFile =
  | { readonly text: string }
  | { readonly absent: true }
  | { readonly refused: string };

/** Why a small file was not opened, in words. */
function openRefusal(error: unknown): SmallFile {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { absent: true };
  // O_NOFOLLOW on a link: ELOOP on Linux and macOS, EMLINK on FreeBSD.
  if (code === 'ELOOP' || code === 'EMLINK') return { refused: 'it is a symbolic link' };
  if (code === 'EACCES' || code === 'EPERM') return { refused: 'permission denied' };
  return { refused: error instanceof Error ? error.message : String(error) };
}

/**
 * A small file of ours read without trusting its place: a link is not followed, a FIFO or a
 * device is not waited on, and nothing over `maxBytes` is read; when it is not read, why.
 */
export async function readSmallFileOrWhy(path: string, maxBytes: number): Promise<SmallFile> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let file;
  try {
    file = await open(path, flags);
  } catch (error) {
    return openRefusal(error);
  }
  try {
    const info = await file.stat();
    if (info.isDirectory()) return { refused: 'it is a folder' };
    if (!info.isFile())
      return { refused: 'it is not a regular file (a FIFO, a socket or a device)' };
    if (info.size > maxBytes)
      return { refused: `it is over ${maxBytes.toLocaleString('en')} bytes` };
    // Sized to the file as it was when opened, one byte over: one that grew since is not read.
    const buffer = Buffer.alloc(info.size + 1);
    const { bytesRead } = await file.read(buffer, 0, info.size + 1, 0);
    if (bytesRead > info.size) return { refused: 'it grew while it was read' };
    return { text: buffer.subarray(0, bytesRead).toString('utf8') };
  } finally {
    await file.close();
  }
}

/**
 * `readSmallFileOrWhy`'s text; undefined when there is no such regular file (absent, a link, a
 * FIFO, a folder, too big).
 */
export async function readSmallFile(path: string, maxBytes: number): Promise<string | undefined> {
  const read = await readSmallFileOrWhy(path, maxBytes);
  return 'text' in read ? read.text : undefined;
}
