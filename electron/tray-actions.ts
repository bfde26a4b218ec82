import type { Confirmation, ConfirmRequest } from '../shared/ipc/dialogs.ts';
import { screenRoute } from '../shared/tray.ts';
import type { RunTrayAction } from './tray-menu.ts';

export type TrayActionDeps = {
  /** core carries out session, profile and notification actions, by the item's id. */
  run(itemId: string): Promise<unknown>;
  confirm(request: ConfirmRequest): Promise<Confirmation>;
  openWindow(route: string): void;
  copy(text: string): void;
  quit(): void;
  /** A failed action is told, not thrown into the tray's click handler. */
  report(error: unknown): void;
};

/**
 * What a click on a tray item does. The shell's own actions (open, copy, quit) stay here; the
 * rest go to core, and stopping a session only after the person confirms it natively, since a
 * stopped agent does not come back by itself.
 */
export function trayActionRunner(deps: TrayActionDeps): RunTrayAction {
  return (action, itemId) => {
    switch (action.name) {
      case 'app.open':
        return deps.openWindow(screenRoute(action.screen));
      case 'app.quit':
        return deps.quit();
      case 'clipboard.copy':
        return deps.copy(action.text);
      case 'session.stop':
        void deps
          .confirm({
            title: 'Stop this session?',
            message:
              'The agent disconnects and does not come back until it is started again on its machine.',
            confirmLabel: 'Stop session',
            destructive: true,
          })
          .then((answer) => (answer.status === 'confirmed' ? deps.run(itemId) : undefined))
          .catch(deps.report);
        return;
      default:
        void deps.run(itemId).catch(deps.report);
    }
  };
}
