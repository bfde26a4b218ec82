import {
  ipcCalls,
  isIpcCallName,
  type IpcCallName,
  type IpcCheckedArgs,
  type IpcResult,
} from '../../shared/ipc/contract.ts';
import type { IpcReply } from '../../shared/ipc/bridge.ts';

export type IpcHandlers = {
  [N in IpcCallName]: (...args: IpcCheckedArgs<N>) => Promise<IpcResult<N>> | IpcResult<N>;
};

type AnyHandler = (...args: readonly unknown[]) => unknown;

/**
 * The single entry point for a call from a renderer, whatever carried it. Unknown names and
 * arguments that do not match the contract are refused here, before any handler runs.
 */
export async function dispatchIpc(
  handlers: IpcHandlers,
  name: unknown,
  args: unknown,
): Promise<IpcReply> {
  if (!isIpcCallName(name)) {
    return fail('IPC_UNKNOWN_CALL', `unknown call ${JSON.stringify(name)}`);
  }
  const parsed = ipcCalls[name].args.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('IPC_BAD_ARGUMENTS', `bad arguments for ${name}: ${issue?.message ?? 'invalid'}`);
  }
  try {
    // The schema above has checked the arguments against this very name's contract.
    const handler = handlers[name] as AnyHandler;
    return { ok: true, value: await handler(...parsed.data) };
  } catch (error) {
    return fail('IPC_HANDLER_FAILED', error instanceof Error ? error.message : String(error));
  }
}

function fail(code: string, message: string): IpcReply {
  return { ok: false, error: { code, message } };
}
