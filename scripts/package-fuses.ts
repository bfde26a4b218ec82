/**
 * Compares the fuses in a packaged binary with electron-builder's `electronFuses` option, both
 * named as electron-builder names them (`runAsNode`, `onlyLoadAppFromAsar`…).
 */
import { FuseV1Options } from '@electron/fuses';

/** A fuse's byte on the wire: ASCII '1' or '0' (@electron/fuses does not export its names). */
const ON = 0x31;
const OFF = 0x30;

/** The wire as @electron/fuses' getCurrentFuseWire reads it: fuse index → state byte. */
export type FuseWire = Record<number, number>;

const optionOf = (name: string) =>
  FuseV1Options[(name[0]?.toUpperCase() + name.slice(1)) as keyof typeof FuseV1Options] as
    | FuseV1Options
    | undefined;

const said = (state: number | undefined) =>
  state === ON ? 'on' : state === OFF ? 'off' : 'missing';

/** One line per fuse that is not as asked ("runAsNode: asked off, is on"). */
export function fuseMismatches(asked: Record<string, boolean>, wire: FuseWire): string[] {
  return Object.entries(asked).flatMap(([name, on]) => {
    const option = optionOf(name);
    if (option === undefined) return [`${name}: no such fuse`];
    const state = wire[option];
    const wanted = on ? ON : OFF;
    return state === wanted ? [] : [`${name}: asked ${on ? 'on' : 'off'}, is ${said(state)}`];
  });
}
