import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalPath, markStep, openJournal } from '../../../../core/snapshot/apply/journal.ts';
import type { Plan } from '../../../../core/snapshot/plan/plan.ts';

/** A plan of `n` creates; the journal never looks inside its steps. */
const planOf = (n: number): Plan => ({
  documentDigest: 'digest',
  targetApiUrl: 'http://127.0.0.1:1',
  prune: false,
  steps: Array.from({ length: n }, (_, i) => ({
    action: 'create',
    kind: 'ipPolicy',
    name: `ipPolicy/p${i}`,
    fields: { description: `policy ${i}`.padEnd(200, '.') },
  })),
  ids: {},
  targetIds: [],
  blockers: [],
  untouched: [],
});

const ABOUT = { owner: 'profile:test', target: 'Test', source: 'test.json' };

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function folder() {
  const dir = await mkdtemp(join(tmpdir(), 'burrow-journal-'));
  dirs.push(dir);
  return dir;
}

describe('apply journal', () => {
  it('writes the plan once: a mark appends one line, whatever the size of the plan', async () => {
    const dir = await folder();
    const plan = planOf(1_000);
    const { journal } = await openJournal(dir, plan, ABOUT);
    await markStep(dir, journal, 0, { state: 'started', at: Date.now() });
    const planFile = journalPath(dir, journal.id);
    const before = await stat(planFile);
    const stepsFile = planFile.replace(/json$/, 'steps');
    for (let i = 0; i < 50; i++) {
      await markStep(
        dir,
        journal,
        i,
        i === 0
          ? { state: 'done', created: { name: `ipPolicy/p${i}`, id: `ipp_${i}` } }
          : { state: 'started', at: Date.now() },
      );
    }
    const after = await stat(planFile);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    const lines = (await readFile(stepsFile, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(51);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(100);
  });

  it('resumes from the marks, ignoring a last line a kill cut short', async () => {
    const dir = await folder();
    const plan = planOf(3);
    const { journal } = await openJournal(dir, plan, ABOUT);
    await markStep(dir, journal, 0, { state: 'started', at: 1_000 });
    await markStep(dir, journal, 0, {
      state: 'done',
      created: { name: 'ipPolicy/p0', id: 'ipp_0' },
    });
    await markStep(dir, journal, 1, { state: 'started', at: 2_000 });
    const steps = journalPath(dir, journal.id).replace(/json$/, 'steps');
    // A start whose time is no number (an older or damaged line) is resumed with no time.
    await appendFile(steps, '{"step":2,"state":"started","at":"soon"}\n');
    await appendFile(steps, '{"step":1,"sta');
    const { journal: resumed, resumed: isResumed } = await openJournal(dir, plan, ABOUT);
    expect(isResumed).toBe(true);
    expect(resumed.steps).toEqual({ 0: 'done', 1: 'started', 2: 'started' });
    expect(resumed.startedAt).toEqual({ 0: 1_000, 1: 2_000 });
    expect(resumed.ids).toEqual({ 'ipPolicy/p0': 'ipp_0' });
    expect(resumed.plan).toEqual(plan);
  });

  it.each(['', '{"format":"burrow-apply', 'null', '[]'])(
    'names a damaged plan file (%j) instead of resuming it',
    async (text) => {
      const dir = await folder();
      const plan = planOf(2);
      const { journal } = await openJournal(dir, plan, ABOUT);
      await markStep(dir, journal, 0, { state: 'started', at: Date.now() });
      const planFile = journalPath(dir, journal.id);
      await writeFile(planFile, text);
      await expect(openJournal(dir, plan, ABOUT)).rejects.toThrow(
        `${planFile} is not this apply's journal`,
      );
    },
  );

  it('leaves no file until the first mark', async () => {
    const dir = await folder();
    await openJournal(dir, planOf(2), ABOUT);
    expect(await readdir(dir)).toEqual([]);
  });
});
