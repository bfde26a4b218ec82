/*
 * Versions as agents report them (3.2.1) and as Burrow's update feed writes them (v1.4.0,
 * 1.5.0-beta.2): one order for the fleet's filters, the alert rules and Burrow's own updates.
 */

export type Version = { readonly core: readonly number[]; readonly pre: readonly string[] };

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** The version `text` says, or undefined when it is none (an SSH client's "OpenSSH_9.3"). */
export function readVersion(text: string): Version | undefined {
  const match = VERSION.exec(text.trim());
  if (!match) return undefined;
  const [, major, minor, patch, pre] = match;
  return { core: [major, minor, patch].map(Number), pre: pre ? pre.split('.') : [] };
}

function comparePre(a: readonly string[], b: readonly string[]): number {
  // A release sorts after its pre-releases (1.5.0-beta.2 < 1.5.0).
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length);
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const [x, y] = [a[i], b[i]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

/**
 * -1, 0 or 1 as `a` is older than, the same as or newer than `b`, numeric part by part (3.10.0
 * is above 3.9.9). A text that is no version sorts below every version, so it is never newer.
 */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [readVersion(a), readVersion(b)];
  if (x === undefined || y === undefined) return Number(x !== undefined) - Number(y !== undefined);
  for (let i = 0; i < 3; i += 1) {
    const order = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (order !== 0) return Math.sign(order);
  }
  return comparePre(x.pre, y.pre);
}
