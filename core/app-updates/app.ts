import type { AppInfo } from '../../shared/app/ipc/contract.ts';
import type { EventHub } from '../ipc/events.ts';
import { updateHandlers } from './handlers.ts';
import { UpdateService, type UpdateServiceOptions } from './service.ts';

export type AppUpdatesOptions = Pick<UpdateServiceOptions, 'engine' | 'clock'> & {
  /** Why there is no engine, when the shell knows better than "from its sources". */
  readonly unavailable?: string;
  /** The quiet "ready: restart to update" notice, once per version (the shell shows it). */
  readonly notify?: (message: string) => void;
};

/** Why there is no updater, in the Settings' words. */
function noUpdater(shell: AppInfo['shell']): string {
  return shell === 'browser'
    ? 'Browser mode has no updater: updates come with the installed desktop app'
    : 'Burrow runs from its sources here: updates come with an installed release';
}

/**
 * The app's updates as the composition wires them: the service (its first check started), its
 * state forwarded as `updates.changed`, its notice to the shell, and its calls.
 */
export function appUpdates(
  app: { readonly version: string; readonly shell: AppInfo['shell'] },
  options: AppUpdatesOptions | undefined,
  settings: UpdateServiceOptions['settings'],
  events: EventHub,
) {
  const service = new UpdateService({
    current: app.version,
    engine: options?.engine ?? null,
    unavailable: options?.unavailable ?? noUpdater(app.shell),
    settings,
    ...(options?.clock && { clock: options.clock }),
  });
  service.onChange((state) => events.emit('updates.changed', state));
  if (options?.notify) service.onNotice(options.notify);
  service.start();
  return { service, handlers: updateHandlers(service) };
}
