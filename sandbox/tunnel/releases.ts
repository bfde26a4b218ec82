/**
 * The agent versions the sandbox's platform has released, oldest first. The sandbox hands this
 * list to every agent that connects, so that "update to the newest version of the same major" is
 * decided from one place: 2.x ends at 2.9.3, 3.x at 3.3.0, 4.x at 4.0.1.
 */
export const AGENT_RELEASES = ['2.9.3', '3.0.0', '3.1.2', '3.3.0', '4.0.1'] as const;

/** What an agent runs when it is not told otherwise: one with an update available. */
export const DEFAULT_AGENT_VERSION = '3.1.2';

const VERSION = /^(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})$/;

/** `X.Y.Z` with plain decimal parts, as the agent declares its version. */
export function isAgentVersion(text: string): boolean {
  return VERSION.test(text);
}

function parts(version: string): [number, number, number] {
  const [, major = '0', minor = '0', patch = '0'] = VERSION.exec(version) ?? [];
  return [Number(major), Number(minor), Number(patch)];
}

function compareVersions(a: string, b: string): number {
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/**
 * The release an update moves `version` to: the newest of its own major, when that is newer than
 * `version`. An update never changes the major version (the spec's command rule 3).
 */
export function updateTarget(version: string, releases: readonly string[]): string | undefined {
  const major = parts(version)[0];
  const newest = releases
    .filter((release) => isAgentVersion(release) && parts(release)[0] === major)
    .reduce<string | undefined>(
      (best, release) =>
        best === undefined || compareVersions(release, best) > 0 ? release : best,
      undefined,
    );
  return newest !== undefined && compareVersions(newest, version) > 0 ? newest : undefined;
}
