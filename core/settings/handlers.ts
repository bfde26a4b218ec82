import type { settingsCalls } from '../../shared/app/ipc/settings.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { SettingsService } from './settings.ts';

/** The settings calls of the contract, carried to the settings service. */
export function settingsHandlers(settings: SettingsService): HandlersOf<typeof settingsCalls> {
  return {
    'settings.get': () => settings.get(),
    'settings.update': (patch) => settings.update(patch),
  };
}
