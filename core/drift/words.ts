import type { SnapshotKind } from '../../shared/app/snapshot-document.ts';
import { AppError } from '../errors.ts';
import type { PlanStep } from '../snapshot/plan/plan.ts';

/** Each kind as a person names one of it. */
const KIND_WORDS: Record<SnapshotKind, string> = {
  ipPolicy: 'IP policy',
  ipPolicyRule: 'IP policy rule',
  certificateAuthority: 'certificate authority',
  sshCertificateAuthority: 'SSH certificate authority',
  sshCredential: 'SSH credential',
  credential: 'tunnel credential',
  agentIngress: 'agent ingress',
  httpResponseBackend: 'HTTP response backend',
  tunnelGroupBackend: 'tunnel group backend',
  failoverBackend: 'failover backend',
  tlsEdge: 'TLS edge',
  httpsEdge: 'edge',
  httpsEdgeRoute: 'route',
};

/** Several of a kind: each kind's name ends in a regular English noun, so its plural is made. */
const plural = (word: string): string =>
  /[^aeiou]y$/.test(word)
    ? `${word.slice(0, -1)}ies`
    : /(s|x|ch|sh)$/.test(word)
      ? `${word}es`
      : `${word}s`;

/** A baseline → live step's action as what happened outside Burrow. */
const DONE = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/** "1 edge updated, 2 IP policies created": each kind and action, in the plan's order. */
export function driftSummary(steps: readonly PlanStep[]): string {
  const counts = new Map<string, { kind: SnapshotKind; action: keyof typeof DONE; n: number }>();
  for (const { kind, action } of steps) {
    if (action === 'unchanged') continue;
    const key = `${kind} ${action}`;
    const counted = counts.get(key) ?? { kind, action, n: 0 };
    counts.set(key, { ...counted, n: counted.n + 1 });
  }
  return [...counts.values()]
    .map(
      ({ kind, action, n }) =>
        `${n} ${n === 1 ? KIND_WORDS[kind] : plural(KIND_WORDS[kind])} ${DONE[action]}`,
    )
    .join(', ');
}

/** Why Put back leaves a resource whose secret changed: the baseline holds only its hash. */
export const secretLeft = (name: string): string =>
  `${name}: its secret changed outside Burrow, and a hash cannot put it back`;

/** What is said once of a baseline set aside: the profile, the file, why, and what to do. */
export function baselineSetAside(
  profileName: string,
  file: string,
  reason: string,
  aside: { readonly file: string } | { readonly failed: string },
): string {
  const moved =
    'file' in aside
      ? `It was set aside as ${aside.file}`
      : `It could not be set aside (${aside.failed}): move it away`;
  return (
    `${profileName} is no longer watched for drift: its baseline ${file} cannot be used, as ` +
    `${reason}. ${moved}. Keep a new baseline to watch it again (Watch in Drift, or ` +
    'burrow drift --set).'
  );
}

/** A baseline left as it is for this run: the keychain or the disk refused to check it. */
export const notChecked = (profileName: string, file: string, error: unknown): string =>
  `${profileName} is not watched for drift this time: its baseline ${file} could not be checked ` +
  `(${error instanceof Error ? error.message : String(error)}). It is left as it is, and read ` +
  'again at the next start.';

export const notWatched = (): AppError =>
  new AppError('DRIFT_NOT_WATCHED', 'That profile is not watched: watch it first', 'profileId');

export const staleDrift = (): AppError =>
  new AppError(
    'DRIFT_STALE',
    'The account changed again since that drift was shown: look at the drift as it is now',
    'driftId',
  );
