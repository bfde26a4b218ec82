import { extractAll, getRawHeader } from '@electron/asar';
import { rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { filesOf } from '../../scripts/package-contents.ts';

/**
 * Extracts a packaged app's asar into `dest` the way Electron reads it: each file electron-builder
 * unpacked becomes a link to its copy in app.asar.unpacked, so that what the app loads from
 * there is loaded from the package's own folder, as Electron would.
 */
export function extractAsar(asar: string, dest: string): void {
  extractAll(asar, dest);
  for (const file of filesOf(getRawHeader(asar).header).filter((f) => f.unpacked)) {
    const extracted = path.join(dest, file.path);
    rmSync(extracted);
    symlinkSync(path.join(`${asar}.unpacked`, file.path), extracted);
  }
}
