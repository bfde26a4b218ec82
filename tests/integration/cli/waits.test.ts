import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiCaller } from '../../support/sandbox-client.ts';
import { steppedClock } from '../../support/stepped-clock.ts';
import { startSandbox, type Sandbox } from '../core/api/support.ts';
import { burrow } from './support.ts';

/*
 * A command that waits for an account's rate limit says so, as the window's header does, and
 * then answers: the sandbox's window of 3 requests is spent before the command's first call.
 * The sandbox and the command's client share a clock the test moves: the wait is said while it
 * lasts, and ends when the test ends it, not after the window's real 6 s.
 */

let sandbox: Sandbox;
const time = steppedClock();

beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: 'cli-waits',
    demo: true,
    rateLimit: { requests: 3, windowSeconds: 6 },
    clock: time.clock,
  });
});

afterAll(() => sandbox.close());

/** The command's run once the account's window is spent: it waits, then the wait ends. */
async function spentThen(...argv: string[]) {
  const call = apiCaller(sandbox.url, 'cli-waits');
  for (let i = 0; i < 3; i++) await call('GET', '/credentials');
  let stderr = '';
  const run = burrow([...argv, '--api-url', sandbox.url], {
    env: { BURROW_API_KEY: 'cli-waits' },
    clock: time.clock,
    onStderr: (all) => (stderr = all),
  });
  await time.waiting(() => stderr);
  const said = stderr;
  time.step();
  return { said, result: await run };
}

it('says "Waiting N s for <account>\'s rate limit…" on stderr while it waits, then lists', async () => {
  const { said, result } = await spentThen('sessions');
  const waiting = new RegExp(
    `^Waiting \\d+ s for ${sandbox.url.replaceAll('.', '\\.')}'s rate limit…\\n$`,
  );
  expect(said).toMatch(waiting);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toMatch(waiting);
  expect(result.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(3);
});

it('with --json, says the wait as a JSON event on stderr; stdout is the answer alone', async () => {
  const { result } = await spentThen('sessions', '--json');
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
