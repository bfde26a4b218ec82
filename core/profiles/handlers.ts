import type { profileCalls } from '../../shared/app/ipc/profiles.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { ProfileService } from './profiles.ts';

/** The profile calls of the contract, carried to the profile service. */
export function profileHandlers(profiles: ProfileService): HandlersOf<typeof profileCalls> {
  return {
    'profiles.state': () => profiles.state(),
    'profiles.add': (draft) => profiles.add(draft),
    'profiles.rename': (id, name) => profiles.rename(id, name),
    'profiles.changeKey': (id, key) => profiles.changeKey(id, key),
    'profiles.changeAddress': (id, change) => profiles.changeAddress(id, change),
    'profiles.switch': (id) => profiles.switch(id),
    'profiles.remove': (id) => profiles.remove(id),
    'profiles.createLocal': () => profiles.createLocal(),
  };
}
