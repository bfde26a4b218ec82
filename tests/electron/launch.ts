import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findElectronBinary } from '../../scripts/electron-binary.ts';

export const binary = findElectronBinary({ download: false });

/** A data folder of its own: the launch is a first launch (Burrow opens its window), not a tray-only start. */
export const freshData = () => mkdtempSync(path.join(os.tmpdir(), 'burrow-electron-'));

export function launchBurrow(userData: string = freshData()): Promise<ElectronApplication> {
  return electron.launch({ executablePath: binary, args: ['.', `--user-data-dir=${userData}`] });
}

/** A first launch's window for `run`, and the app closed after, whatever `run` did. */
export async function withWindow(
  run: (page: Page, app: ElectronApplication) => Promise<void>,
): Promise<void> {
  const app = await launchBurrow();
  try {
    await run(await app.firstWindow(), app);
  } finally {
    await app.close();
  }
}
