import { ipcMain, webContents } from 'electron';
import { dispatchIpc, type IpcImplementation } from '../core/ipc/dispatch.ts';
import type { EventHub } from '../core/ipc/events.ts';
import { isTrustedSender } from '../core/ipc/sender.ts';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type IpcReply } from '../shared/ipc/bridge.ts';

/** One handler for every call: the sender is checked, then core/ checks the arguments. */
export function registerIpc(implementation: IpcImplementation, events: EventHub): void {
  ipcMain.handle(
    IPC_INVOKE_CHANNEL,
    async (event, name: unknown, args: unknown): Promise<IpcReply> => {
      const frame = event.senderFrame;
      if (!isTrustedSender(frame?.url, frame !== null && frame === event.sender.mainFrame)) {
        return { ok: false, error: { code: 'IPC_UNTRUSTED_SENDER', message: 'call refused' } };
      }
      return dispatchIpc(implementation, name, args);
    },
  );
  // Events go to our own pages only: the same check as for a call, on the page's main frame.
  events.subscribe((event) => {
    for (const contents of webContents.getAllWebContents()) {
      if (!contents.isDestroyed() && isTrustedSender(contents.getURL(), true))
        contents.send(IPC_EVENT_CHANNEL, event);
    }
  });
}
