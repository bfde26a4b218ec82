import { ipcMain, webContents } from 'electron';
import type { IpcImplementation } from '../core/ipc/dispatch.ts';
import type { EventHub } from '../core/ipc/events.ts';
import { isTrustedSender } from '../core/ipc/sender.ts';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/app/ipc/bridge.ts';
import { invokeHandler } from './ipc-guard.ts';

/** One handler for every call (checked in ipc-guard.ts), one channel for every event. */
export function registerIpc(implementation: IpcImplementation, events: EventHub): void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, invokeHandler(implementation));
  // Events go to our own pages only: the same check as for a call, on the page's main frame.
  events.onEvent((event) => {
    for (const contents of webContents.getAllWebContents()) {
      if (!contents.isDestroyed() && isTrustedSender(contents.getURL(), true))
        contents.send(IPC_EVENT_CHANNEL, event);
    }
  });
}
