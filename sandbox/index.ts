import type { AddressInfo } from 'node:net';
import { OWNER_TOKEN } from '../shared/api/catalog/owner-proof.ts';
import { systemClock, type Clock } from '../shared/node/clock.ts';
import { DEFAULT_ABUSE_REVIEW_DELAY_MS, TimedAbuseReview } from './abuse/review.ts';
import { defaultAccounts, parseAccountsFile, type AccountsFile } from './accounts.ts';
import { startDemo, type Demo } from './demo/demo.ts';
import { Faults, type FaultController, type FaultRule } from './faults/faults.ts';
import { loadHostKey } from './gateway/host-key.ts';
import { startSshGateway, type SshGateway } from './gateway/ssh-gateway.ts';
import { baseUrlResolver, hostForUrl } from './http/base-url.ts';
import { OperationLog } from './http/operations.ts';
import { RateLimiter, type RateLimit } from './http/rate-limit.ts';
import { createServer } from './http/server.ts';
import { openapiDocument } from './openapi.ts';
import type { Services } from './resources/context.ts';
import { handlerTable, recordCheck } from './resources/index.ts';
import { opensshSigner } from './ssh/signer.ts';
import { newSecret } from './store/ids.ts';
import { Store } from './store/store.ts';
import { attachAgentEndpoint } from './tunnel/endpoint.ts';
import { AGENT_PATH } from './tunnel/protocol.ts';

export type { AccountsFile } from './accounts.ts';
export type { FaultController, FaultRule } from './faults/faults.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  baseUrl?: string;
  accounts?: AccountsFile;
  apiKey?: string;
  rateLimit?: { requests: number; windowSeconds: number } | 'off';
  /** Whether the rate limit's 429s carry `Retry-After` (default true); the real service's do not. */
  retryAfter?: boolean;
  /**
   * Its time (default the system's): the rate limit's window and the abuse reviews' waits. A test
   * that moves its client's clock moves these with it, so that neither waits real seconds.
   */
  clock?: Clock;
  dataFile?: string;
  faults?: FaultRule[];
  log?: (line: string) => void;
  /** Seeds the first account (when empty) and connects demo agents in-process. */
  demo?: boolean;
  /** How long a session command waits for the agent before 504 (default 5000). */
  agentCommandTimeoutMs?: number;
  /** Starts the SSH gateway on this port of `host` (0: a free one); absent: no gateway. */
  sshPort?: number;
  /** How long after its creation an abuse report is reviewed (default 30000). */
  abuseReviewDelayMs?: number;
  /**
   * The secret with which it proves to be the sandbox a Local sandbox record names
   * (shared/api/catalog/owner-proof.ts); absent: it answers no challenge.
   */
  ownerSecret?: string;
}

export interface Sandbox {
  url: string;
  apiKey: string | undefined;
  faults: FaultController;
  /** The agent endpoint (WebSocket) where agents start tunnel sessions. */
  agentUrl: string;
  /** The SSH gateway's bound port, when `sshPort` was given. */
  sshPort?: number;
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

function checkOwnerSecret(secret: string): string {
  if (!OWNER_TOKEN.test(secret)) throw new Error('ownerSecret must be 64 lowercase hex digits');
  return secret;
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
  const ownerSecret =
    options.ownerSecret !== undefined ? checkOwnerSecret(options.ownerSecret) : undefined;
  const apiKey = options.accounts ? undefined : (options.apiKey ?? newSecret());
  const config = options.accounts
    ? parseAccountsFile(options.accounts)
    : defaultAccounts(apiKey ?? newSecret());

  const store = new Store(config, log);
  const clock = options.clock ?? systemClock;
  const abuseReview = new TimedAbuseReview(
    store,
    options.abuseReviewDelayMs ?? DEFAULT_ABUSE_REVIEW_DELAY_MS,
    clock,
    log,
  );
  const services: Services = { store, ssh: opensshSigner, abuseReview };
  if (options.dataFile !== undefined) await store.attach(options.dataFile, recordCheck(services));
  try {
    const hostKey = options.sshPort !== undefined ? await loadHostKey(options.dataFile) : undefined;
    const faults = new Faults();
    for (const rule of options.faults ?? []) faults.add(rule);

    let resolveBase: (hostHeader: string | undefined) => string = () => '';
    const app = createServer({
      services,
      handlers: handlerTable(),
      faults,
      operations: new OperationLog(),
      rateLimiter: rateLimit && new RateLimiter(rateLimit, () => clock.now()),
      retryAfter: options.retryAfter ?? true,
      baseUrl: (hostHeader) => baseUrl ?? resolveBase(hostHeader),
      openapi: openapiDocument,
      log,
      ownerSecret,
    });
    const agentEndpoint = attachAgentEndpoint(app.server, {
      store,
      commandTimeoutMs: options.agentCommandTimeoutMs ?? 5_000,
    });
    await app.listen({ host, port: options.port ?? 0 });
    const { port } = app.server.address() as AddressInfo;
    resolveBase = baseUrlResolver(connectHost(host), port);
    let gateway: SshGateway | undefined;
    if (options.sshPort !== undefined && hostKey)
      gateway = await startSshGateway({
        host,
        port: options.sshPort,
        hostKey,
        accounts: () => store.accounts.values(),
        sessions: services.store.sessions,
        log,
      }).catch(async (error: unknown) => {
        await agentEndpoint.close();
        await app.close();
        throw error;
      });

    const agentUrl = `ws://${hostForUrl(connectHost(host))}:${port}${AGENT_PATH}`;
    let demo: Demo | undefined;
    if (options.demo)
      demo = await startDemo(services, agentUrl).catch(async (error: unknown) => {
        await agentEndpoint.close();
        await gateway?.close();
        await app.close();
        throw error;
      });

    // Only once nothing can fail any more: a failed start must leave no timer behind.
    abuseReview.resume();
    let closing: Promise<void> | undefined;
    return {
      url: baseUrl ?? `http://${hostForUrl(connectHost(host))}:${port}`,
      apiKey,
      faults,
      agentUrl,
      ...(gateway && { sshPort: gateway.port }),
      close: () =>
        (closing ??= (async () => {
          await demo?.close();
          await agentEndpoint.close();
          await gateway?.close();
          await app.close();
          abuseReview.close();
          await store.close();
        })()),
    };
  } catch (error) {
    // A start that fails lets go of the data file again: the next one may have it.
    await store.close();
    throw error;
  }
}
