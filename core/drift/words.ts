import type { SnapshotKind } from '../../shared/app/snapshot-document.ts';
import type { PlanStep } from '../snapshot/plan.ts';

/** Each kind as a person names it: one, and several. */
const KIND_WORDS: Record<SnapshotKind, readonly [string, string]> = {
  ipPolicy: ['IP policy', 'IP policies'],
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
