import { createHash } from 'node:crypto';
import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { crud } from './crud.ts';
import { describedFields, storedFields } from './render.ts';

/** Regions of the platform, each a subdomain of the ingress domain. */
const INGRESS_REGIONS = ['us', 'eu', 'ap', 'au', 'sa', 'jp', 'in'] as const;

/**
 * Four name servers per domain, stable for a domain (so that recreating an ingress asks for the
 * same NS records), under a reserved TLD so that nothing real is ever delegated.
 */
function nsTargets(domain: string): string[] {
  const digest = createHash('sha256').update(domain.toLowerCase()).digest();
  return [0, 1, 2, 3].map(
    (i) => `ns-${(digest.readUInt16BE(i * 2) % 2048) + 1}.dns-${i + 1}.sandbox.invalid`,
  );
}

export const agentIngressHandlers = crud<
  'agentIngress',
  ParsedBodyOf<'agentIngresses.create'>,
  ParsedBodyOf<'agentIngresses.update'>
>({
  group: 'agentIngresses',
  kind: 'agentIngress',
  create: (ctx, fields) => {
    const domain = ctx.body.domain.toLowerCase();
    return {
      ...fields,
      domain,
      ns_targets: nsTargets(domain),
      region_domains: INGRESS_REGIONS.map((region) => `${region}.${domain}`),
    };
  },
  render: (record, base) => ({
    ...describedFields(record, base),
    ...storedFields(record, ['domain', 'ns_targets', 'region_domains']),
  }),
});
