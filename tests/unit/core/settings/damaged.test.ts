import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setAsideDamagedSettings } from '../../../../core/settings/damaged.ts';
import { LOCAL_PROFILE as LOCAL, REMOTE_PROFILE as PROD } from '../../../support/profiles.ts';

const NOW = new Date('2026-11-26T19:52:00.123Z');
const ASIDE = 'settings.damaged-2026-11-26T19-52-00.json';

async function folderWith(text?: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-damaged-'));
  if (text !== undefined) await writeFile(path.join(dir, 'settings.json'), text);
  return dir;
}

const settingsOf = async (dir: string): Promise<unknown> =>
  JSON.parse(await readFile(path.join(dir, 'settings.json'), 'utf8'));

describe('a damaged settings.json', () => {
  it('leaves a missing file and a good one as they are', async () => {
    expect(setAsideDamagedSettings(await folderWith(), NOW)).toBeUndefined();
    const good = JSON.stringify({ profiles: [PROD], settings: { theme: 'dark' } });
    const dir = await folderWith(good);
    expect(setAsideDamagedSettings(dir, NOW)).toBeUndefined();
    expect(await readFile(path.join(dir, 'settings.json'), 'utf8')).toBe(good);
  });

  it('is set aside, named and dated, and the profiles its text still holds are kept', async () => {
    // Cut off mid-write, after both profiles and the active one.
    const whole = JSON.stringify({
      profiles: [LOCAL, PROD],
      activeProfileId: PROD.id,
      settings: { theme: 'dark', pollIntervalSeconds: 30 },
    });
    const text = whole.slice(0, whole.indexOf('"theme"') + 4);
    const dir = await folderWith(text);
    const damaged = setAsideDamagedSettings(dir, NOW);
    expect(damaged?.file).toBe(path.join(dir, ASIDE));
    expect(await readFile(path.join(dir, ASIDE), 'utf8')).toBe(text);
    expect(await settingsOf(dir)).toEqual({ profiles: [LOCAL, PROD], activeProfileId: PROD.id });
    expect(damaged?.message).toContain(path.join(dir, 'settings.json'));
    expect(damaged?.message).toContain(path.join(dir, ASIDE));
    expect(damaged?.message).toContain('2 profiles recovered');
    expect(damaged?.message).not.toContain('\n');
  });

  it('keeps only whole profiles, once each, and an active one only if it is among them', async () => {
    const half = JSON.stringify({ ...PROD, id: 'prf_half00001' }).slice(0, -8);
    const text = `{"profiles":[${JSON.stringify(PROD)},${JSON.stringify(PROD)},${half},{"id":"x"}],"activeProfileId":"prf_half00001",`;
    const dir = await folderWith(text);
    expect(setAsideDamagedSettings(dir, NOW)?.message).toContain('1 profile recovered');
    expect(await settingsOf(dir)).toEqual({ profiles: [PROD] });
  });

  it('with no profile to recover, leaves no settings.json: the app starts as on a first launch', async () => {
    const dir = await folderWith('\u0000\u0000\u0000');
    expect(setAsideDamagedSettings(dir, NOW)?.message).toContain('no profile could be recovered');
    expect(existsSync(path.join(dir, 'settings.json'))).toBe(false);
    expect(existsSync(path.join(dir, ASIDE))).toBe(true);
  });

  it.each([
    ['a list', '[]'],
    ['null', 'null'],
    ['an empty file', ''],
  ])('takes %s for a damaged file', async (_, text) => {
    const dir = await folderWith(text);
    expect(setAsideDamagedSettings(dir, NOW)?.file).toBe(path.join(dir, ASIDE));
  });

  it('never overwrites an older damaged file of the same second', async () => {
    const dir = await folderWith('{');
    await writeFile(path.join(dir, ASIDE), 'the first one');
    const damaged = setAsideDamagedSettings(dir, NOW);
    expect(damaged?.file).toBe(path.join(dir, 'settings.damaged-2026-11-26T19-52-00-2.json'));
    expect(await readFile(path.join(dir, ASIDE), 'utf8')).toBe('the first one');
  });
});
