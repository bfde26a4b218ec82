import { z } from 'zod';
import { DescribedBody, describedFields, resourceFields } from '../values/common.ts';
import { DomainName } from '../values/hosts.ts';

export const AgentIngress = z.looseObject({
  ...resourceFields('agentIngress'),
  domain: z.string(),
  ns_targets: z.array(z.string()),
  region_domains: z.array(z.string()),
});
export type AgentIngress = z.output<typeof AgentIngress>;

/** `domain` is fixed at creation: the update body refuses it. */
export const AgentIngressCreate = z.strictObject({ ...describedFields, domain: DomainName });
export type AgentIngressCreate = z.input<typeof AgentIngressCreate>;

export const AgentIngressUpdate = DescribedBody;
export type AgentIngressUpdate = z.input<typeof AgentIngressUpdate>;
