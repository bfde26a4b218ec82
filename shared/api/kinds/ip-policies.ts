import { z } from 'zod';
import { DescribedBody, resourceFields } from '../values/common.ts';

export const IPPolicy = z.looseObject(resourceFields('ipPolicy'));
export type IPPolicy = z.output<typeof IPPolicy>;

export const IPPolicyCreate = DescribedBody;
export type IPPolicyCreate = z.input<typeof IPPolicyCreate>;

export const IPPolicyUpdate = DescribedBody;
export type IPPolicyUpdate = z.input<typeof IPPolicyUpdate>;
