import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { FakeClock } from '../../support/fake-clock.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { accountCallers, ACCOUNTS, expectError, raw } from './support.ts';

const LIMIT = 5;
const WINDOW_SECONDS = 1;

let sandbox: Sandbox;
/** The window's clock: it rolls when the test moves it, not after a real second. */
const clock = new FakeClock();
beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: ACCOUNTS,
    rateLimit: { requests: LIMIT, windowSeconds: WINDOW_SECONDS },
    clock,
  });
});
afterAll(() => sandbox.close());

describe('the rate limit of each account', () => {
  it('admits the limit, refuses the next with 429 ERR_SERVICE_226, and rolls', async () => {
    const { alice, bob, carol } = accountCallers(sandbox.url);
    expect((await alice('GET', '/ip_policies')).status).toBe(200);
    for (let i = 1; i < LIMIT - 1; i++)
      expect((await alice('GET', '/ip_policies')).status).toBe(200);
    // Bob shares acme's budget: it is the account's, not the user's.
    expect((await bob('GET', '/ip_policies')).status).toBe(200);
    const refused = await alice('GET', '/ip_policies');
    expectError(refused, 'rateLimited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expectError(await bob('POST', '/ip_policies', {}), 'rateLimited');
    // Another account has a budget of its own.
    expect((await carol('GET', '/ip_policies')).status).toBe(200);
    // Neither the sandbox endpoints nor unauthenticated requests spend it.
    expect((await alice('GET', '/_sandbox/faults')).status).toBe(200);
    expectError(await raw(`${sandbox.url}/ip_policies`, {}), 'noAuthorization');

    // The window rolls from the first admission, a whole window later and not a moment before.
    await clock.advance(WINDOW_SECONDS * 1000 - 1);
    expectError(await alice('GET', '/ip_policies'), 'rateLimited');
    await clock.advance(1);
    expect((await alice('GET', '/ip_policies')).status).toBe(200);
  });

  it('leaves Retry-After out of its 429s when asked, as the real service does', async () => {
    const bare = await startSandbox({
      apiKey: 'k',
      rateLimit: { requests: 1, windowSeconds: 60 },
      retryAfter: false,
    });
    try {
      const api = apiCaller(bare.url, 'k');
      expect((await api('GET', '/ip_policies')).status).toBe(200);
      const refused = await api('GET', '/ip_policies');
      expectError(refused, 'rateLimited');
      expect(refused.headers.has('retry-after')).toBe(false);
    } finally {
      await bare.close();
    }
  });

  it('can be switched off', async () => {
    const unlimited = await startSandbox({ apiKey: 'k', rateLimit: 'off' });
    try {
      const api = apiCaller(unlimited.url, 'k');
      const replies = await Promise.all(
        Array.from({ length: 150 }, () => api('GET', '/ip_policies')),
      );
      expect(replies.every((r) => r.status === 200)).toBe(true);
    } finally {
      await unlimited.close();
    }
  });

  it('defaults to 120 requests per 60 s', async () => {
    const limited = await startSandbox({ apiKey: 'k' });
    try {
      const api = apiCaller(limited.url, 'k');
      const replies = await Promise.all(
        Array.from({ length: 125 }, () => api('GET', '/ip_policies')),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(120);
      expect(replies.filter((r) => r.status === 429)).toHaveLength(5);
    } finally {
      await limited.close();
    }
  });
});
