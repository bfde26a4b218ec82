import type { IpcMainInvokeEvent } from 'electron';
import { dispatchIpc, type IpcImplementation } from '../core/ipc/dispatch.ts';
import { isTrustedSender } from '../core/ipc/sender.ts';
import type { IpcReply } from '../shared/app/ipc/bridge.ts';

/** The part of an invoke event the check reads. */
export type InvokeEvent = {
  readonly senderFrame: Pick<NonNullable<IpcMainInvokeEvent['senderFrame']>, 'url'> | null;
  readonly sender: { readonly mainFrame: unknown };
};

/**
 * The one handler for every call: the sender must be our page's main frame on our scheme, then
 * core/ checks the name and the arguments against the contract's schemas.
 */
export function invokeHandler(
  implementation: IpcImplementation,
): (event: InvokeEvent, name: unknown, args: unknown) => Promise<IpcReply> {
  return async (event, name, args) => {
    const frame = event.senderFrame;
    if (!isTrustedSender(frame?.url, frame !== null && frame === event.sender.mainFrame)) {
      return { ok: false, error: { code: 'IPC_UNTRUSTED_SENDER', message: 'call refused' } };
    }
    return dispatchIpc(implementation, name, args);
  };
}
