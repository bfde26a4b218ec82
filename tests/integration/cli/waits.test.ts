import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiCaller } from '../../support/sandbox-client.ts';
import { startSandbox, type Sandbox } from '../core/api/support.ts';
import { burrow } from './support.ts';

/*
 * A command that waits for an account's rate limit says so, as the window's header does, and
 * then answers: the sandbox's window of 3 requests is spent before the command's first call.
 */

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: 'cli-waits',
    demo: true,
    rateLimit: { requests: 3, windowSeconds: 6 },
  });
});

afterAll(() => sandbox.close());

/** The command's run once the account's window is spent. */
async function spentThen(...argv: string[]) {
  const call = apiCaller(sandbox.url, 'cli-waits');
  for (let i = 0; i < 3; i++) await call('GET', '/credentials');
  return burrow([...argv, '--api-url', sandbox.url], { env: { BURROW_API_KEY: 'cli-waits' } });
}

it('says "Waiting N s for <account>\'s rate limit…" on stderr, then lists', async () => {
  const result = await spentThen('sessions');
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toMatch(
    new RegExp(`^Waiting \\d+ s for ${sandbox.url.replaceAll('.', '\\.')}'s rate limit…\\n$`),
  );
  expect(result.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(3);
});

it('with --json, says the wait as a JSON event on stderr; stdout is the answer alone', async () => {
  const result = await spentThen('sessions', '--json');
  expect(result.code, result.stderr).toBe(0);
  const events = result.stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  expect(events).toEqual([
    { event: 'waiting', profile: sandbox.url, seconds: expect.any(Number), for: 'rate limit' },
  ]);
  expect((JSON.parse(result.stdout) as unknown[]).length).toBe(3);
});
