import type { AddressInfo } from 'node:net';
import { defaultAccounts, parseAccountsFile, type AccountsFile } from './accounts.ts';
import { Faults, type FaultController, type FaultRule } from './faults/faults.ts';
import { baseUrlResolver, hostForUrl } from './http/base-url.ts';
import { OperationLog } from './http/operations.ts';
import { RateLimiter, type RateLimit } from './http/rate-limit.ts';
import { createServer } from './http/server.ts';
import { openapiDocument } from './openapi.ts';
import { noAbuseReview } from './resources/abuse-reports.ts';
import type { Services } from './resources/context.ts';
import { handlerTable, recordCheck } from './resources/index.ts';
import { opensshSigner } from './ssh/signer.ts';
import { newSecret } from './store/ids.ts';
import { Store } from './store/store.ts';

export type { AccountsFile } from './accounts.ts';
export type { FaultController, FaultRule } from './faults/faults.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  baseUrl?: string;
  accounts?: AccountsFile;
  apiKey?: string;
  rateLimit?: { requests: number; windowSeconds: number } | 'off';
  dataFile?: string;
  faults?: FaultRule[];
  log?: (line: string) => void;
}

export interface Sandbox {
  url: string;
  apiKey: string | undefined;
  faults: FaultController;
  close(): Promise<void>;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { requests: 120, windowSeconds: 60 };

function checkRateLimit(limit: RateLimit | 'off'): RateLimit | undefined {
  if (limit === 'off') return undefined;
  const { requests, windowSeconds } = limit;
  if (!Number.isInteger(requests) || requests < 1 || !(windowSeconds > 0))
    throw new Error('rateLimit needs a positive integer of requests and a positive window');
  return limit;
}

function checkBaseUrl(baseUrl: string): string {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw new Error(`baseUrl must be an http(s) URL without query or fragment, not "${baseUrl}"`);
  return baseUrl.replace(/\/+$/, '');
}

/** Where clients connect when the server listens on every address. */
function connectHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

/** Starts the sandbox: the whole management API on `host:port`, with its own accounts and state. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const baseUrl = options.baseUrl !== undefined ? checkBaseUrl(options.baseUrl) : undefined;
  const rateLimit = checkRateLimit(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const apiKey = options.accounts ? undefined : (options.apiKey ?? newSecret());
  const config = options.accounts
    ? parseAccountsFile(options.accounts)
    : defaultAccounts(apiKey ?? newSecret());

  const store = new Store(config);
  const services: Services = { store, ssh: opensshSigner, abuseReview: noAbuseReview };
  if (options.dataFile !== undefined) await store.attach(options.dataFile, recordCheck(services));
  const faults = new Faults();
  for (const rule of options.faults ?? []) faults.add(rule);

  let resolveBase: (hostHeader: string | undefined) => string = () => '';
  const app = createServer({
    services,
    handlers: handlerTable(),
    faults,
    operations: new OperationLog(),
    rateLimiter: rateLimit && new RateLimiter(rateLimit),
    baseUrl: (hostHeader) => baseUrl ?? resolveBase(hostHeader),
    openapi: openapiDocument,
    log,
  });
  await app.listen({ host, port: options.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  resolveBase = baseUrlResolver(connectHost(host), port);

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl ?? `http://${hostForUrl(connectHost(host))}:${port}`,
    apiKey,
    faults,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await store.flush();
      })()),
  };
}
