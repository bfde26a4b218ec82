import { sleep, type Clock } from '../../shared/node/clock.ts';
import { removeRecord, writeRecord, type SandboxRecord } from './local-sandbox-record.ts';
import type { RunningSandbox } from './local-sandbox-start.ts';
import { countUsers } from './local-sandbox-users.ts';

/**
 * How long a process quitting lets the commands that use its sandbox finish (one call each, as
 * a rule); a longer one (a `--watch`) then fails as it would with the sandbox gone.
 */
const USERS_WAIT_MS = 10_000;
const USERS_RETRY_MS = 100;

/**
 * This process's sandbox, recorded. Closing it takes the record away before the data file:
 * while the file is still held, no later sandbox can have recorded itself, so the record
 * removed is this one's; and a process that starts in between waits for the file.
 */
export async function ownSandbox(
  dataDir: string,
  sandbox: RunningSandbox,
  secret: string,
  clock: Clock,
): Promise<RunningSandbox> {
  const mine: SandboxRecord = {
    url: sandbox.url,
    pid: process.pid,
    secret,
    ...(sandbox.rateLimit && { rateLimit: sandbox.rateLimit }),
  };
  try {
    await writeRecord(dataDir, mine);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    url: sandbox.url,
    ...(sandbox.rateLimit && { rateLimit: sandbox.rateLimit }),
    close: async () => {
      await removeRecord(dataDir, mine);
      await usersGone(dataDir, clock);
      await sandbox.close();
    },
  };
}

/** Until no command uses this process's sandbox (local-sandbox-users.ts), or USERS_WAIT_MS. */
async function usersGone(dataDir: string, clock: Clock): Promise<void> {
  const until = clock.now() + USERS_WAIT_MS;
  while ((await countUsers(dataDir)) > 0 && clock.now() < until)
    await sleep(clock, USERS_RETRY_MS, undefined, () => new Error('never aborted'));
}
