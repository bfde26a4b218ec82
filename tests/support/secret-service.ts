import { setTimeout as sleep } from 'node:timers/promises';
import { osKeychain, probeKeychain } from '../../core/profiles/keychain.ts';

/**
 * Whether this machine has a Secret Service to keep keys in, probed once per test file with
 * core's own probe (a secret written, read back and removed). `.ci/run` starts one in a D-Bus
 * session; a plain shell often has none, or a locked one that would wait on a prompt, hence the
 * timeout. Tests that keep a key skip without one, so `npm run test:quick` runs anywhere; with
 * BURROW_REQUIRE_SECRET_SERVICE set (as `.ci/run` does) a missing one fails instead of skipping.
 */
const PROBE_TIMEOUT_MS = 5_000;

async function probe(): Promise<string | undefined> {
  const timedOut = sleep(PROBE_TIMEOUT_MS, undefined, { ref: false }).then(() => ({
    available: false as const,
    message: `the keychain did not answer in ${PROBE_TIMEOUT_MS / 1000} s`,
  }));
  const status = await Promise.race([
    probeKeychain(await osKeychain('burrow-test-probe')),
    timedOut,
  ]);
  return status.available ? undefined : status.message;
}

/** Why keys cannot be kept here, or undefined when they can: `it.skipIf(noSecretService)`. */
export const noSecretService = await probe();

if (noSecretService !== undefined) {
  if (process.env.BURROW_REQUIRE_SECRET_SERVICE)
    throw new Error(`A Secret Service is required here: ${noSecretService}`);
  console.warn(`Skipping the tests that keep a key in the keychain: ${noSecretService}`);
}
