import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import { AppError } from '../errors.ts';
import { reason, type Release } from './feed.ts';
import { bodyUpTo } from '../body-up-to.ts';
import { feedHosts, openRead } from './http.ts';

/** A release on disk whose sha512 matched the feed's. */
export type DownloadedUpdate = Release & { readonly file: string };

/**
 * Downloads a release into `dir`, by the rules of core/app-updates/http.ts, hashing it as it arrives,
 * and keeps it only when its size and sha512 are the feed's: anything else (a tampered file, a
 * wrong one, a redirect refused, more bytes than the feed declared, at which it stops) is deleted
 * and refused (`UPDATE_REFUSED`). A connection dropped midway, or the signal fired, is
 * `UPDATE_INTERRUPTED`: worth trying later.
 */
export async function downloadRelease(
  release: Release,
  dir: string,
  options: { readonly signal: AbortSignal; readonly dispatcher?: Dispatcher | undefined },
): Promise<DownloadedUpdate> {
  const what = `The download of Burrow ${release.version}`;
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, release.fileName);
  const partial = `${file}.part`;
  const hash = createHash('sha512');
  let size = 0;
  const handle = await open(partial, 'w', 0o600);
  try {
    const response = await openRead(release.url, {
      what,
      hosts: feedHosts(new URL(release.url)),
      signal: options.signal,
      dispatcher: options.dispatcher,
      notOk: (status) =>
        new AppError('UPDATE_INTERRUPTED', `${what} failed: the server answered ${status}`),
    });
    const tooLarge = () =>
      new AppError(
        'UPDATE_REFUSED',
        `${what} sends more than the ${release.size} bytes the feed declared: refused`,
      );
    for await (const chunk of bodyUpTo(response, release.size, tooLarge)) {
      hash.update(chunk);
      size += chunk.byteLength;
      await handle.write(chunk);
    }
  } catch (error) {
    await handle.close();
    await rm(partial, { force: true });
    if (error instanceof AppError) throw error;
    throw new AppError('UPDATE_INTERRUPTED', `${what} was interrupted: ${reason(error)}`);
  }
  await handle.close();
  const sha512 = hash.digest('base64');
  if (size < release.size) {
    await rm(partial, { force: true });
    throw new AppError(
      'UPDATE_INTERRUPTED',
      `${what} was interrupted: ${size} of ${release.size} bytes came`,
    );
  }
  if (sha512 !== release.sha512) {
    await rm(partial, { force: true });
    throw new AppError('UPDATE_REFUSED', `${what} was refused: its sha512 is not the feed's`);
  }
  await rename(partial, file);
  return { ...release, file };
}
