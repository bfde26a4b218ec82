import type { SnapshotKind } from '../../shared/app/snapshot-document.ts';
import { AppError } from '../errors.ts';
import type { PlanStep } from '../snapshot/plan/plan.ts';

/** Each kind as a person names it: one, and several. */
const KIND_WORDS: Record<SnapshotKind, readonly [string, string]> = {
  ipPolicy: ['IP policy', 'IP policies'],
  ipPolicyRule: ['IP policy rule', 'IP policy rules'],
  certificateAuthority: ['certificate authority', 'certificate authorities'],
  sshCertificateAuthority: ['SSH certificate authority', 'SSH certificate authorities'],
  sshCredential: ['SSH credential', 'SSH credentials'],
  credential: ['tunnel credential', 'tunnel credentials'],
  agentIngress: ['agent ingress', 'agent ingresses'],
  httpResponseBackend: ['HTTP response backend', 'HTTP response backends'],
  tunnelGroupBackend: ['tunnel group backend', 'tunnel group backends'],
  failoverBackend: ['failover backend', 'failover backends'],
  tlsEdge: ['TLS edge', 'TLS edges'],
  httpsEdge: ['edge', 'edges'],
  httpsEdgeRoute: ['route', 'routes'],
};

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
    .map(({ kind, action, n }) => `${n} ${KIND_WORDS[kind][n === 1 ? 0 : 1]} ${DONE[action]}`)
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
