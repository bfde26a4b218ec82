import type { Faults } from '../faults/faults.ts';
import type { HandlerTable, Services } from '../resources/context.ts';
import type { OperationLog } from './operations.ts';
import type { RateLimiter } from './rate-limit.ts';

/** What the HTTP server is built from: the sandbox's state, its handlers and its settings. */
export type ServerDeps = {
  readonly services: Services;
  readonly handlers: HandlerTable;
  readonly faults: Faults;
  readonly operations: OperationLog;
  readonly rateLimiter: RateLimiter | undefined;
  /** Whether a 429 of the rate limit says when to retry; the real service's do not. */
  readonly retryAfter: boolean;
  /** The base URL of a request, from its Host header; set once the port is known. */
  readonly baseUrl: (host: string | undefined) => string;
  readonly openapi: (base: string) => object;
  readonly log: (line: string) => void;
  /** Given: the sandbox answers owner challenges with it (owner-route.ts). */
  readonly ownerSecret?: string | undefined;
};
