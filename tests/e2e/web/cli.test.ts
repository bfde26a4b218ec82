import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { bin } from '../../support/bins.ts';

it.each(['0', '1.5', 'soon'])(
  'refuses a test poll interval of %s, naming the variable, before starting anything',
  async (value) => {
    const run = promisify(execFile)(process.execPath, [bin('web-cli'), '--port', '0'], {
      env: { ...process.env, BURROW_TEST_POLL_INTERVAL_MS: value },
    });
    await expect(run).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`bad BURROW_TEST_POLL_INTERVAL_MS ${value}`),
    });
  },
);
