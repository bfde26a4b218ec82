import { SettingsService } from '../../../core/settings/settings.ts';
import type { SessionActionRequest } from '../../../shared/app/ipc/sessions.ts';
import type { ActionResult } from '../../../shared/app/sessions/actions.ts';

/** Settings kept in memory, as fresh as a first launch. */
export function memorySettings(): SettingsService {
  const data = new Map<string, unknown>();
  return new SettingsService({
    get: (key) => data.get(key),
    set: (key, value) => void data.set(key, value),
    delete: (key) => void data.delete(key),
  });
}

/** A session action that only records what it was asked (`ran`) and answers that it failed. */
export function recordedActions() {
  const ran: SessionActionRequest[] = [];
  const runSession = async (request: SessionActionRequest): Promise<ActionResult> => {
    ran.push(request);
    return {
      ok: false,
      ...request,
      step: 'check',
      reason: 'test',
      errorCode: null,
      operationId: null,
    };
  };
  return { ran, runSession };
}
