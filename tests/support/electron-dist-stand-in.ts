import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/*
 * A STAND-IN for Electron's unpacked distribution, for packaging where Electron's binary cannot be
 * downloaded: electron-builder's `electronDist` copies this folder as the app's base and flips
 * the fuses in its `electron` file. The file is no Electron: a few bytes carrying the fuse
 * sentinel and a fuse wire as Electron 45 ships it, which is all that packaging and
 * @electron/fuses read. It cannot run the app.
 */

/** The marker @electron/fuses looks for; the wire's version and length follow it. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * Electron's own defaults, one byte per fuse in FuseV1Options order ('1' on, '0' off): run as
 * Node, cookie encryption, NODE_OPTIONS, --inspect, asar integrity, only load from asar, browser
 * V8 snapshot, file:// privileges.
 */
const DEFAULT_WIRE = '10110001';

/** Writes the stand-in into `dir` (created) and returns `dir`, to pass as `electronDist`. */
export function writeElectronDistStandIn(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const binary = path.join(dir, 'electron');
  writeFileSync(
    binary,
    Buffer.concat([
      Buffer.from('#!/bin/sh\necho "a stand-in for Electron: it cannot run the app" >&2\nexit 1\n'),
      Buffer.from(FUSE_SENTINEL),
      Buffer.from([1, DEFAULT_WIRE.length]),
      Buffer.from(DEFAULT_WIRE),
    ]),
  );
  chmodSync(binary, 0o755);
  return dir;
}
