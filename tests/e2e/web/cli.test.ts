import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { bin } from '../../support/bins.ts';

it.each([
  ['BURROW_TEST_POLL_INTERVAL_MS', '0'],
  ['BURROW_TEST_POLL_INTERVAL_MS', '1.5'],
  ['BURROW_TEST_POLL_INTERVAL_MS', 'soon'],
  // Below the spec's 10 s between an update and its restart.
  ['BURROW_TEST_UPDATE_SETTLE_MS', '9999'],
])('refuses %s=%s, naming the variable, before starting anything', async (name, value) => {
  const run = promisify(execFile)(process.execPath, [bin('web-cli'), '--port', '0'], {
    env: { ...process.env, [name]: value },
  });
  await expect(run).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringContaining(`bad ${name} ${value}`),
  });
});
