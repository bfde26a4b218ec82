import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFile } from '../../../sandbox/store/data-file.ts';

describe('DataFile', () => {
  it('coalesces commits that arrive during a write into one more write', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'burrow-df-')), 'state.json');
    let state = 0;
    let snapshots = 0;
    const file = new DataFile(path, () => {
      snapshots++;
      return JSON.stringify({ state });
    });
    const commits: Promise<void>[] = [];
    for (let i = 1; i <= 20; i++) {
      state = i;
      commits.push(file.commit());
    }
    await Promise.all(commits);
    expect(snapshots).toBe(2);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ state: 20 });
    expect(readdirSync(join(path, '..'))).toEqual(['state.json']);
    await file.flush();
  });

  it('reads nothing from a missing file and refuses an unparsable one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-df-'));
    expect(await DataFile.read(join(dir, 'none.json'))).toBeUndefined();
    await expect(DataFile.read(dir)).rejects.toThrow(/cannot read data file/);
  });
});
