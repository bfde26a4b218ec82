import type { updateCalls } from '../../shared/app/ipc/updates.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { UpdateService } from './service.ts';

/** The update calls of the contract, carried to the update service. */
export function updateHandlers(updates: UpdateService): HandlersOf<typeof updateCalls> {
  return {
    'updates.state': () => updates.state(),
    'updates.check': () => updates.check(),
    'updates.download': () => updates.download(),
    'updates.install': () => updates.install(),
  };
}
