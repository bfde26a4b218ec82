import { Emitter } from '../../shared/app/emitter.ts';
import {
  FORMER_DEFAULT_POLL_SECONDS,
  Settings,
  SettingsPatch,
} from '../../shared/app/ipc/settings.ts';
import type { KeyValueStore } from '../store.ts';

const KEY = 'settings';
/**
 * Stored beside the settings once the person sets the poll interval: from then on a 15 is their
 * choice, not the former default (see FORMER_DEFAULT_POLL_SECONDS).
 */
const POLL_CHOSEN = 'pollIntervalChosen';

/**
 * The person's settings, read field by field: a field that no longer parses (an older file, a
 * hand edit) falls back to its default, and the others are kept.
 */
export class SettingsService {
  private readonly changes = new Emitter<Settings>('the settings');
  private current: Settings;
  private pollChosen: boolean;

  constructor(private readonly store: KeyValueStore) {
    const stored = store.get(KEY);
    this.current = readSettings(stored);
    this.pollChosen = isRecord(stored) && stored[POLL_CHOSEN] === true;
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
      alerts: { ...this.current.alerts, ...checked.alerts },
    });
    this.pollChosen ||= checked.pollIntervalSeconds !== undefined;
    this.store.set(KEY, { ...this.current, ...(this.pollChosen && { [POLL_CHOSEN]: true }) });
    // Written already: a listener's failure is logged, never this update's.
    this.changes.emit(this.current);
    return this.current;
  }

  onChange(listener: (settings: Settings) => void): () => void {
    return this.changes.subscribe(listener);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function readSettings(stored: unknown): Settings {
  const defaults = Settings.parse({});
  if (!isRecord(stored)) return defaults;
  const fields = Object.entries(Settings.shape).map(([key, schema]) => {
    const parsed = schema.safeParse(stored[key]);
    return [key, parsed.success ? parsed.data : defaults[key as keyof Settings]];
  });
  const settings = Object.fromEntries(fields) as Settings;
  if (settings.pollIntervalSeconds === FORMER_DEFAULT_POLL_SECONDS && stored[POLL_CHOSEN] !== true)
    settings.pollIntervalSeconds = defaults.pollIntervalSeconds;
  return settings;
}
