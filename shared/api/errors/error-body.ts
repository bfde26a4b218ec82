import { z } from 'zod';

/**
 * Every error response. `details` always holds the operation id (`op_…`), which finds the request
 * again in the server's log; a validation error also names the offending `field`. Read leniently:
 * a client that cannot parse an error cannot show it.
 */
export const ErrorBody = z.looseObject({
  error_code: z.string().regex(/^ERR_SERVICE_\d+$/),
  status_code: z.int(),
  msg: z.string(),
  details: z.looseObject({ operation_id: z.string(), field: z.string().optional() }),
});
export type ErrorBody = z.output<typeof ErrorBody>;
