import { z } from 'zod';
import { describedFields, resourceFields, StringMap } from '../values/common.ts';
import { HeaderMap } from '../values/http-headers.ts';
import { idSchema, type IdKind } from '../values/ids.ts';
import { Labels } from '../values/labels.ts';

/** The kinds an edge's backend module, or a failover backend, may point to. */
export const BACKEND_KINDS = [
  'failoverBackend',
  'httpResponseBackend',
  'tunnelGroupBackend',
] as const satisfies readonly IdKind[];
export const BackendId = idSchema(...BACKEND_KINDS);

export const FailoverBackend = z.looseObject({
  ...resourceFields('failoverBackend'),
  backends: z.array(z.string()),
});
export type FailoverBackend = z.output<typeof FailoverBackend>;

/** The child backends in failover order; at least one. */
export const FailoverBackendCreate = z.strictObject({
  ...describedFields,
  backends: z.array(BackendId).min(1),
});
export type FailoverBackendCreate = z.input<typeof FailoverBackendCreate>;

/** The create fields, each optional. */
export const FailoverBackendUpdate = FailoverBackendCreate.partial();
export type FailoverBackendUpdate = z.input<typeof FailoverBackendUpdate>;

/** Answers every request itself with a fixed response. */
export const HTTPResponseBackend = z.looseObject({
  ...resourceFields('httpResponseBackend'),
  body: z.string(),
  headers: StringMap,
  status_code: z.int(),
});
export type HTTPResponseBackend = z.output<typeof HTTPResponseBackend>;

const httpResponseFields = {
  body: z.string(),
  headers: HeaderMap,
  status_code: z.int().min(100).max(599),
};

export const HTTPResponseBackendCreate = z.strictObject({
  ...describedFields,
  body: httpResponseFields.body.default(''),
  headers: httpResponseFields.headers.default(() => ({})),
  status_code: httpResponseFields.status_code.default(200),
});
export type HTTPResponseBackendCreate = z.input<typeof HTTPResponseBackendCreate>;

export const HTTPResponseBackendUpdate = z
  .strictObject({ ...describedFields, ...httpResponseFields })
  .partial();
export type HTTPResponseBackendUpdate = z.input<typeof HTTPResponseBackendUpdate>;

/** Balances over the online tunnels whose labels include all of `labels`. */
export const TunnelGroupBackend = z.looseObject({
  ...resourceFields('tunnelGroupBackend'),
  labels: StringMap,
});
export type TunnelGroupBackend = z.output<typeof TunnelGroupBackend>;

export const TunnelGroupBackendCreate = z.strictObject({ ...describedFields, labels: Labels });
export type TunnelGroupBackendCreate = z.input<typeof TunnelGroupBackendCreate>;

/** The create fields, each optional. */
export const TunnelGroupBackendUpdate = TunnelGroupBackendCreate.partial();
export type TunnelGroupBackendUpdate = z.input<typeof TunnelGroupBackendUpdate>;
