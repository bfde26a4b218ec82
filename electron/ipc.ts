import { ipcMain } from 'electron';
import { dispatchIpc, type IpcHandlers } from '../core/ipc/dispatch.ts';
import { isTrustedSender } from '../core/ipc/sender.ts';
import { IPC_INVOKE_CHANNEL, type IpcReply } from '../shared/ipc/bridge.ts';

/** One handler for every call: the sender is checked, then core/ checks the arguments. */
export function registerIpc(handlers: IpcHandlers): void {
  ipcMain.handle(
    IPC_INVOKE_CHANNEL,
    async (event, name: unknown, args: unknown): Promise<IpcReply> => {
      const frame = event.senderFrame;
      if (!isTrustedSender(frame?.url, frame !== null && frame === event.sender.mainFrame)) {
        return { ok: false, error: { code: 'IPC_UNTRUSTED_SENDER', message: 'call refused' } };
      }
      return dispatchIpc(handlers, name, args);
    },
  );
}
