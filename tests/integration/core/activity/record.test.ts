import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityRecord } from '../../../../core/activity/record.ts';
import { MAX_LINE_BYTES } from '../../../../core/activity/lines.ts';
import { ACTIVITY_KEEP_MS } from '../../../../shared/app/activity.ts';
import { bin } from '../../../support/bins.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';

const run = promisify(execFile);
const P1 = 'prf_00000001';
const EACH = 400;

let dir: string | undefined;
afterEach(async () => {
  if (dir) await removeDir(dir);
  dir = undefined;
});

const appender = (dataDir: string, tag: string) =>
  run(process.execPath, [bin('activity-appender'), dataDir, tag, String(EACH)]);

describe('the activity record', { timeout: 60_000 }, () => {
  it('keeps every line of two processes appending at once, while the app trims', async () => {
    dir = await tempDir('burrow-activity-');
    const record = new ActivityRecord(dir);
    // Entries past the week, for the trims to drop while the others append.
    for (let i = 0; i < 50; i++)
      record.append({
        kind: 'notice',
        at: Date.now() - ACTIVITY_KEEP_MS - 1000,
        profileId: P1,
        title: `old ${i}`,
        detail: '',
        notice: 'offline',
      });
    const both = Promise.all([appender(dir, 'a'), appender(dir, 'b')]);
    let trims = 0;
    let settled = false;
    void both.finally(() => (settled = true));
    while (!settled) {
      if (record.trim()) trims += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await both;

    const text = await readFile(path.join(dir, 'activity', `${P1}.jsonl`), 'utf8');
    for (const line of text.split('\n').filter((l) => l !== '')) {
      expect(() => JSON.parse(line) as unknown).not.toThrow();
      expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(MAX_LINE_BYTES);
    }
    const titles = record.list().entries.map((e) => e.title);
    for (const tag of ['a', 'b'])
      for (let i = 0; i < EACH; i++) expect(titles).toContain(`${tag} ${i}`);
    expect(titles).toHaveLength(2 * EACH);
    expect(trims).toBeGreaterThan(0);
  });

  it('lists newest first, by profile and kind, and counts what is new since it was seen', async () => {
    dir = await tempDir('burrow-activity-');
    let now = 1_000_000;
    const record = new ActivityRecord(dir, () => now);
    const P2 = 'prf_00000002';
    const base = { detail: '', source: 'window', ok: true } as const;
    record.append({ kind: 'action', at: 1, profileId: P1, title: 'first', ...base });
    record.append({ kind: 'action', at: 3, profileId: P2, title: 'third', ...base });
    record.append({
      kind: 'notice',
      at: 2,
      profileId: P1,
      title: 'second',
      detail: '',
      notice: 'offline',
      held: 'rule',
    });
    expect(record.list().entries.map((e) => e.title)).toEqual(['third', 'second', 'first']);
    expect(record.list({ profileId: P1, kind: 'action' }).entries.map((e) => e.title)).toEqual([
      'first',
    ]);
    expect(record.list().unseen).toBe(3);
    record.seen();
    now += 10;
    record.append({ kind: 'action', at: now, profileId: P1, title: 'fourth', ...base });
    expect(record.list().unseen).toBe(1);
    expect(() =>
      record.append({ kind: 'action', at: 1, profileId: '../x', title: 't', ...base }),
    ).toThrow('profileId: "../x" is no profile id');
  });
});
