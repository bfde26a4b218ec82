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

  it('keeps any other interval the person chose', async () => {
    expect((await storedWith(30)).get().pollIntervalSeconds).toBe(30);
    expect((await storedWith(5)).get().pollIntervalSeconds).toBe(5);
  });
});
