import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsService } from '../../../../core/settings/settings.ts';
import { openConfStore } from '../../../../core/store.ts';

async function storedWith(pollIntervalSeconds?: number): Promise<SettingsService> {
  const store = await openConfStore(await mkdtemp(path.join(tmpdir(), 'burrow-settings-')));
  if (pollIntervalSeconds !== undefined) store.set('settings', { pollIntervalSeconds });
  return new SettingsService(store);
}

describe('the poll interval’s default', () => {
  it('is 5 s, and a stored 15 (the former default, stored whole with any change) reads as 5', async () => {
    expect((await storedWith()).get().pollIntervalSeconds).toBe(5);
    expect((await storedWith(15)).get().pollIntervalSeconds).toBe(5);
  });

  it('keeps a 15 the person chose, across a restart', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'burrow-settings-'));
    new SettingsService(await openConfStore(dir)).update({ pollIntervalSeconds: 15 });
    const again = new SettingsService(await openConfStore(dir));
    expect(again.get().pollIntervalSeconds).toBe(15);
    // Any later change keeps it a choice.
    again.update({ theme: 'dark' });
    expect(new SettingsService(await openConfStore(dir)).get().pollIntervalSeconds).toBe(15);
  });

  it('keeps any other interval the person chose', async () => {
    expect((await storedWith(30)).get().pollIntervalSeconds).toBe(30);
    expect((await storedWith(5)).get().pollIntervalSeconds).toBe(5);
  });
});
