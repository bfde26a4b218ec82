import {
  createApiClient,
  type ApiClientOptions,
  type ApiEvent,
} from '../../../../core/api/client.ts';
import type { RetryPolicy } from '../../../../core/api/retry.ts';
import { startSandbox } from '../../../../sandbox/index.ts';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxOptions = Parameters<typeof startSandbox>[0];
export { startSandbox };

/** Backoffs scaled to test windows of a second or two. */
export const FAST_RETRY: Partial<RetryPolicy> = {
  backoff: { baseMs: 20, maxMs: 200 },
  rateLimitBackoff: { baseMs: 100, maxMs: 800 },
};

/** A client of `sandbox` that records its events; no rate limit unless the test gives one. */
export function clientOf(sandbox: Sandbox, options: Partial<ApiClientOptions> = {}) {
  const events: ApiEvent[] = [];
  const client = createApiClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey ?? '',
    rateLimit: { requests: 1_000, windowMs: 1_000 },
    retry: FAST_RETRY,
    onEvent: (event) => events.push(event),
    ...options,
  });
  const waits = () => events.filter((e) => e.type === 'rate-limited');
  const retries = () => events.filter((e) => e.type === 'retrying');
  return { client, events, waits, retries };
}

/**
 * An account of its own: a sandbox with key `key`, without rate limit, and a client of it, both
 * closed by the test's `cleanup` list.
 */
export async function startAccount(key: string, cleanup: (() => Promise<unknown>)[]) {
  const sandbox = await startSandbox({ apiKey: key, rateLimit: 'off' });
  const api = clientOf(sandbox).client;
  cleanup.push(
    () => sandbox.close(),
    () => api.close(),
  );
  return { sandbox, api };
}

/**
 * A sandbox of one account whose one user's only key is `apiKey`, without rate limit. Started
 * again on the same port and data file it is the same service, under the key it is given then.
 */
export function sandboxKeyedTo(apiKey: string, port: number, dataFile: string): Promise<Sandbox> {
  return startSandbox({
    accounts: {
      accounts: [{ name: 'acme', users: [{ id: 'usr_alice', admin: true, api_keys: [apiKey] }] }],
    },
    dataFile,
    port,
    rateLimit: 'off',
  });
}
