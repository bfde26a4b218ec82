/**
 * agents.json in a real data folder: a damaged file set aside with a log line (never a crash),
 * what a kill left mid-write swept, changes gathered into one write, the file bounded.
 */
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentRegistry, MAX_GONE_AGENTS } from '../../../../core/agents/registry.ts';
import { AGENTS_FILE, AgentsFile, DAMAGED_FILE } from '../../../../core/agents/store.ts';
import { MAX_MARKS } from '../../../../core/agents/history.ts';
import { FakeClock } from '../../../support/fake-clock.ts';
import { session } from '../../../support/tunnel-sessions.ts';

const dataDir = () => mkdtemp(path.join(tmpdir(), 'burrow-agents-file-'));

function fileIn(dir: string) {
  const clock = new FakeClock();
  const logged: string[] = [];
  const file = new AgentsFile(dir, clock, 2_000, (message) => logged.push(message));
  return { file, clock, logged };
}

/** A registry with `count` agents of one profile, each gone after a day of flapping. */
function flapped(count: number) {
  let now = 1_000_000;
  let polls = 0;
  const registry = new AgentRegistry(() => now);
  const sessions = Array.from({ length: count }, (_, i) => session({ metadata: `agent ${i}` }));
  const poll = (listed: typeof sessions) =>
    registry.applySnapshot({
      profileId: 'p1',
      health: 'ok',
      healthReason: null,
      sessions: listed,
      lastPollAt: now,
      polls: ++polls,
      pages: 1,
      intervalMs: 5_000,
    });
  poll(sessions);
  for (let i = 0; i < MAX_MARKS; i++) {
    now += 60_000;
    registry.applyEvent({ kind: 'offline', profileId: 'p1', at: now, sessions });
    now += 60_000;
    poll(sessions);
  }
  registry.applyEvent({ kind: 'offline', profileId: 'p1', at: now, sessions });
  registry.expire();
  return registry;
}

describe('agents.json', () => {
  it('sets a damaged file aside, says so in the log, and starts afresh', async () => {
    for (const damage of ['{"version":1,"agents":[{"agent":', '{"version":2,"agents":[]}']) {
      const dir = await dataDir();
      await writeFile(path.join(dir, AGENTS_FILE), damage);
      const { file, logged } = fileIn(dir);
      expect(await file.read()).toEqual([]);
      expect(logged).toEqual([
        expect.stringMatching(/could not be read.*set aside as agents\.damaged\.json/),
      ]);
      expect(await readFile(path.join(dir, DAMAGED_FILE), 'utf8')).toBe(damage);
      expect(await readdir(dir)).not.toContain(AGENTS_FILE);
    }
  });

  it('starts afresh, with a log line, when the file cannot be read at all', async () => {
    const dir = await dataDir();
    await mkdir(path.join(dir, AGENTS_FILE));
    const { file, logged } = fileIn(dir);
    expect(await file.read()).toEqual([]);
    expect(logged).toEqual([expect.stringMatching(/could not be read.*EISDIR.*start afresh/)]);
  });

  it('sweeps what a kill left mid-write, and gathers changes into one whole write', async () => {
    const dir = await dataDir();
    const left = `${AGENTS_FILE}.0123456789ab.tmp`;
    await writeFile(path.join(dir, left), '{"half');
    const { file, clock } = fileIn(dir);
    expect(await file.read()).toEqual([]);
    expect(await readdir(dir)).not.toContain(left);

    const registry = flapped(3);
    let asked = 0;
    const entries = () => {
      asked += 1;
      return registry.entries();
    };
    for (let i = 0; i < 50; i++) file.schedule(entries);
    await clock.advance(1_999);
    expect(await readdir(dir)).toEqual([]);
    await clock.advance(1);
    await file.flush();
    expect(asked).toBe(1);
    const again = fileIn(dir);
    const read = await again.file.read();
    expect(read.map((e) => e.agent)).toEqual(registry.entries().map((e) => e.agent));
  });

  it('stays bounded: gone agents capped per profile, each day capped', async () => {
    const dir = await dataDir();
    const registry = flapped(MAX_GONE_AGENTS + 50);
    expect(registry.entries()).toHaveLength(MAX_GONE_AGENTS);
    const { file } = fileIn(dir);
    await file.flush(() => registry.entries());
    const bytes = (await stat(path.join(dir, AGENTS_FILE))).size;
    // 200 gone agents, each with a full day of 200 marks and 200 bands: about 4 MB.
    expect(bytes).toBeLessThan(6 << 20);
    for (const { agent } of registry.entries())
      expect(agent.history.marks.length).toBeLessThanOrEqual(MAX_MARKS);
  });
});
