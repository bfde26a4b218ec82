/**
 * kill -9 inside a write. Each crash point of the persistence layer (CRASH_POINTS) kills a
 * sandbox process at that step of a write; the data file must then hold every acknowledged write,
 * load, and take new writes. Then child processes are killed at random moments while several
 * clients write at once. Replay the random run with CRASH_SEED=<seed>.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import {
  CRASH_AT_ENV,
  CRASH_POINTS,
  type CrashPoint,
} from '../../../sandbox/store/crash-points.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { Prng } from '../../integration/sandbox/blackbox/prng.ts';
import { freshDataFile, spawnSandbox } from './sandbox-process.ts';

type Api = ReturnType<typeof apiCaller>;
type Policy = { id: string; description: string };

/** Large enough that a few dozen writes make the journal outgrow its compaction threshold. */
const METADATA = 'm'.repeat(4000);

async function listAll(api: Api): Promise<Policy[]> {
  const all: Policy[] = [];
  let next: string | null = '/ip_policies';
  while (next) {
    const page: ApiReply = await api('GET', next);
    expect(page.status).toBe(200);
    all.push(...page.body.ip_policies);
    next = page.body.next_page_uri;
  }
  return all.reverse();
}

/**
 * The policies a sandbox restarted on `file` holds, oldest first, once it proved it still writes:
 * a write after the recovery, then another kill -9 (no compaction on close), must read back.
 */
async function recovered(file: string): Promise<Policy[]> {
  const sandbox = spawnSandbox(['--data', file]);
  const api = apiCaller(await sandbox.ready, 'k');
  const policies = await listAll(api);
  const reply = await api('POST', '/ip_policies', { description: 'after recovery' });
  expect(reply.status).toBe(201);
  sandbox.child.kill('SIGKILL');
  await sandbox.exit;

  const again = await startSandbox({ apiKey: 'k', dataFile: file, rateLimit: 'off' });
  try {
    expect((await listAll(apiCaller(again.url, 'k'))).map((p) => p.id)).toEqual([
      ...policies.map((p) => p.id),
      reply.body.id,
    ]);
  } finally {
    await again.close();
  }
  return policies;
}

/**
 * How many writes beyond the acknowledged ones the file may hold after a crash at each point:
 * before the data is durable, none; once it is (but not acknowledged), exactly the one in flight.
 */
const UNACKNOWLEDGED_KEPT: Readonly<Record<CrashPoint, readonly number[]>> = {
  'journal.beforeWrite': [0],
  'journal.torn': [0],
  'journal.afterWrite': [0, 1],
  'journal.afterSync': [1],
  // Compaction follows a write's acknowledgement; the reply may not have left before the kill.
  'snapshot.afterTempWrite': [0, 1],
  'snapshot.afterRename': [0, 1],
  'snapshot.afterJournalTruncate': [0, 1],
};

describe('a crash at each step of a write', () => {
  it.each(CRASH_POINTS.map((point) => [point]))(
    '%s: every acknowledged write is kept, and the file loads and takes new writes',
    async (point) => {
      const file = freshDataFile();
      // The journal crash points on the 5th write; the snapshot ones at the first compaction.
      const pass = point.startsWith('journal.') ? 5 : 1;
      const sandbox = spawnSandbox(['--data', file], { [CRASH_AT_ENV]: `${point}:${pass}` });
      const api = apiCaller(await sandbox.ready, 'k');
      const acknowledged: string[] = [];
      for (let i = 0; i < 500; i++) {
        const reply = await api('POST', '/ip_policies', {
          description: `p${i}`,
          metadata: METADATA,
        }).catch(() => undefined);
        if (!reply) break;
        expect(reply.status).toBe(201);
        acknowledged.push(reply.body.id);
      }
      expect((await sandbox.exit).signal, 'the process crashed at the point').toBe('SIGKILL');

      const ids = (await recovered(file)).map((p) => p.id);
      expect(ids.slice(0, acknowledged.length)).toEqual(acknowledged);
      expect(UNACKNOWLEDGED_KEPT[point]).toContain(ids.length - acknowledged.length);
      expect(readdirSync(dirname(file)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      expect(existsSync(`${file}.lock`)).toBe(false);
    },
  );
});

const SEED = Number(process.env['CRASH_SEED'] ?? 0xc4a5);
const ROUNDS = 6;
const WRITERS = 8;

/** What each resource may look like after a crash: its acknowledged state, or the one in flight. */
type Expected = Map<string, Set<string | null>>;

describe('kill -9 at random moments under concurrent writes', () => {
  // Each round starts a sandbox process (a few seconds each on a busy machine).
  it(
    `${ROUNDS} rounds of ${WRITERS} writers: the file keeps every acknowledged create, update and delete`,
    { timeout: 240_000 },
    async () => {
      console.log(`crash seed ${SEED} (replay with CRASH_SEED=${SEED})`);
      const rng = new Prng(SEED);
      const file = freshDataFile();
      const expected: Expected = new Map();
      let counter = 0;

      for (let round = 0; round <= ROUNDS; round++) {
        const sandbox = spawnSandbox(['--data', file]);
        const api = apiCaller(await sandbox.ready, 'k');

        // The state the last kill left: every resource as acknowledged, or as its write in flight.
        const found = new Map((await listAll(api)).map((p) => [p.id, p.description]));
        const unknown = [...found.keys()].filter((id) => !expected.has(id));
        for (const id of unknown) expect(found.get(id), `unacknowledged ${id}`).toMatch(/^c\d+$/);
        for (const [id, allowed] of expected)
          expect(allowed, `${id} after round ${round - 1}`).toContain(found.get(id) ?? null);
        expected.clear();
        for (const [id, description] of found) expected.set(id, new Set([description]));
        if (round === ROUNDS) {
          sandbox.child.kill('SIGTERM');
          expect((await sandbox.exit).code).toBe(0);
          break;
        }

        let killed = false;
        const writer = async (owned: string[]) => {
          while (!killed) {
            const id = owned.length > 0 && rng.bool(0.5) ? rng.pick(owned) : undefined;
            const current = id === undefined ? undefined : expected.get(id);
            const description = `${id === undefined ? 'c' : 'u'}${counter++}`;
            const remove = id !== undefined && rng.bool(0.3);
            if (id !== undefined && current) {
              current.add(remove ? null : description);
              owned.splice(owned.indexOf(id), 1);
            }
            let reply: ApiReply | undefined;
            if (id === undefined)
              reply = await api('POST', '/ip_policies', { description, metadata: METADATA }).catch(
                () => undefined,
              );
            else if (remove)
              reply = await api('DELETE', `/ip_policies/${id}`).catch(() => undefined);
            else
              reply = await api('PATCH', `/ip_policies/${id}`, { description }).catch(
                () => undefined,
              );
            if (!reply) return;
            expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
            if (id === undefined) {
              expected.set(reply.body.id, new Set([description]));
              owned.push(reply.body.id);
            } else {
              expected.set(id, new Set([remove ? null : description]));
              if (!remove) owned.push(id);
            }
          }
        };
        const owned = [...found.keys()];
        const writers = Array.from({ length: WRITERS }, (_, w) =>
          writer(owned.filter((_, i) => i % WRITERS === w)),
        );
        await sleep(rng.int(50, 600));
        killed = true;
        sandbox.child.kill('SIGKILL');
        await Promise.all(writers);
        await sandbox.exit;
      }
    },
  );
});
