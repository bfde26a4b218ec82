import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fetch, type Dispatcher } from 'undici';
import { AppError } from '../errors.ts';
import { reason, type Release } from './feed.ts';

/** A release on disk whose sha512 matched the feed's. */
export type DownloadedUpdate = Release & { readonly file: string };

/**
 * Downloads a release into `dir`, hashing it as it arrives, and keeps it only when its size and
 * sha512 are the feed's: anything else (a tampered file, a wrong one) is deleted and refused
 * (`UPDATE_REFUSED`). A connection dropped midway is `UPDATE_INTERRUPTED`: worth trying later.
 */
export async function downloadRelease(
  release: Release,
  dir: string,
  dispatcher?: Dispatcher,
): Promise<DownloadedUpdate> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, release.fileName);
  const partial = `${file}.part`;
  const hash = createHash('sha512');
  let size = 0;
  const handle = await open(partial, 'w', 0o600);
  try {
    const response = await fetch(release.url, { ...(dispatcher && { dispatcher }) });
    if (!response.ok || !response.body)
      throw new AppError(
        'UPDATE_INTERRUPTED',
        `The download of Burrow ${release.version} failed: the server answered ${response.status}`,
      );
    for await (const chunk of response.body) {
      hash.update(chunk);
      size += chunk.byteLength;
      await handle.write(chunk);
    }
  } catch (error) {
    await handle.close();
    await rm(partial, { force: true });
    if (error instanceof AppError) throw error;
    throw new AppError(
      'UPDATE_INTERRUPTED',
      `The download of Burrow ${release.version} was interrupted: ${reason(error)}`,
    );
  }
  await handle.close();
  const sha512 = hash.digest('base64');
  if (release.size !== null && size < release.size) {
    await rm(partial, { force: true });
    throw new AppError(
      'UPDATE_INTERRUPTED',
      `The download of Burrow ${release.version} was interrupted: ${size} of ${release.size} bytes came`,
    );
  }
  if (sha512 !== release.sha512 || (release.size !== null && size !== release.size)) {
    await rm(partial, { force: true });
    throw new AppError(
      'UPDATE_REFUSED',
      `The download of Burrow ${release.version} was refused: its sha512 is not the feed's`,
    );
  }
  await rename(partial, file);
  return { ...release, file };
}
