import { AppError } from '../errors.ts';

/*
 * Versions as the feed and the app write them (1.4.0, 1.5.0-beta.2). Only a strictly newer
 * version is ever offered: the same or an older one is nothing, so a feed rolled back (or one
 * serving an old file) never downgrades anyone.
 */

type Version = { readonly core: readonly number[]; readonly pre: readonly string[] };

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string, field = 'version'): Version {
  const match = VERSION.exec(text.trim());
  if (!match)
    throw new AppError('UPDATE_BAD_VERSION', `${field} must be a version like 1.4.0`, field);
  const [, major, minor, patch, pre] = match;
  return { core: [major, minor, patch].map(Number), pre: pre ? pre.split('.') : [] };
}

function comparePre(a: readonly string[], b: readonly string[]): number {
  // A release sorts after its pre-releases (1.5.0-beta.2 < 1.5.0).
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const [x, y] = [a[i], b[i]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  for (let i = 0; i < 3; i += 1) {
    const order = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (order !== 0) return Math.sign(order);
  }
  return comparePre(x.pre, y.pre);
}

export const isNewer = (offered: string, current: string) => compareVersions(offered, current) > 0;
