import { _electron as electron, type ElectronApplication } from '@playwright/test';
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
