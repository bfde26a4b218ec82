import { Emitter } from '../../shared/emitter.ts';
import { FORMER_DEFAULT_POLL_SECONDS, Settings, SettingsPatch } from '../../shared/ipc/settings.ts';
import type { KeyValueStore } from '../store.ts';

const KEY = 'settings';

/**
 * The person's settings, read field by field: a field that no longer parses (an older file, a
 * hand edit) falls back to its default, and the others are kept.
 */
export class SettingsService {
  private readonly changes = new Emitter<Settings>('the settings');
  private current: Settings;

  constructor(private readonly store: KeyValueStore) {
    this.current = readSettings(store.get(KEY));
  }

  get(): Settings {
    return this.current;
  }

  update(patch: SettingsPatch): Settings {
    const checked = SettingsPatch.parse(patch);
    this.current = Settings.parse({
      ...this.current,
      ...checked,
      notifications: { ...this.current.notifications, ...checked.notifications },
    });
    this.store.set(KEY, this.current);
    // Written already: a listener's failure is logged, never this update's.
    this.changes.emit(this.current);
    return this.current;
  }

  subscribe(listener: (settings: Settings) => void): () => void {
    return this.changes.subscribe(listener);
  }
}

function readSettings(stored: unknown): Settings {
  const defaults = Settings.parse({});
  if (typeof stored !== 'object' || stored === null) return defaults;
  const fields = Object.entries(Settings.shape).map(([key, schema]) => {
    const parsed = schema.safeParse((stored as Record<string, unknown>)[key]);
    return [key, parsed.success ? parsed.data : defaults[key as keyof Settings]];
  });
  const settings = Object.fromEntries(fields) as Settings;
  if (settings.pollIntervalSeconds === FORMER_DEFAULT_POLL_SECONDS)
    settings.pollIntervalSeconds = defaults.pollIntervalSeconds;
  return settings;
}
