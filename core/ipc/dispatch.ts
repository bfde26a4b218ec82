import { ApiError, ClientError, NetworkError } from '../api/errors.ts';
import { AppError } from '../errors.ts';
import { SshError } from '../ssh/errors.ts';
import { API_CALLS, type ApiCallEntry, type ListAllOptions } from '../../shared/ipc/api-calls.ts';
import {
  appCalls,
  isAppCallName,
  type AppCallName,
  type IpcError,
} from '../../shared/ipc/contract.ts';
import type { IpcReply } from '../../shared/ipc/bridge.ts';
import type { AppHandlers } from './handlers.ts';

export type ApiRequestEnvelope = {
  readonly params?: Readonly<Record<string, string>> | undefined;
  readonly body?: unknown;
  readonly query?: ListAllOptions['query'];
};

/** Everything the contract's calls reach: the app's own calls, and the API's by catalog entry. */
export interface IpcImplementation {
  readonly calls: AppHandlers;
  call(entry: ApiCallEntry, request: ApiRequestEnvelope | undefined): Promise<unknown>;
  listAll(entry: ApiCallEntry, options: ListAllOptions | undefined): Promise<unknown>;
}

type AnyHandler = (...args: readonly unknown[]) => unknown;

/**
 * The single entry point for a call from a renderer, whatever carried it. Unknown names and
 * arguments that do not match the contract are refused here, before any handler runs; whatever
 * a handler throws comes back as data, never as a stack trace.
 */
export async function dispatchIpc(
  implementation: IpcImplementation,
  name: unknown,
  args: unknown,
): Promise<IpcReply> {
  const api = typeof name === 'string' ? API_CALLS.get(name) : undefined;
  if (!isAppCallName(name) && api === undefined) {
    return fail({ code: 'IPC_UNKNOWN_CALL', message: `unknown call ${JSON.stringify(name)}` });
  }
  const schema = api ? api.args : appCalls[name as AppCallName].args;
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // The first argument is the form a person filled in: its path below names the field.
    const field = issue?.path.slice(1).join('.');
    return fail({
      code: 'IPC_BAD_ARGUMENTS',
      message: field
        ? (issue?.message ?? 'invalid')
        : `bad arguments for ${String(name)}: ${issue?.message ?? 'invalid'}`,
      ...(field && { field }),
    });
  }
  const checked = parsed.data as unknown[];
  try {
    let value: unknown;
    if (api?.listAll) value = await implementation.listAll(api, checked[0] as ListAllOptions);
    else if (api) value = await implementation.call(api, checked[0] as ApiRequestEnvelope);
    // The schema above has checked the arguments against this very name's contract.
    else value = await (implementation.calls[name as AppCallName] as AnyHandler)(...checked);
    return { ok: true, value };
  } catch (error) {
    return fail(ipcErrorOf(error));
  }
}

function fail(error: IpcError): IpcReply {
  return { ok: false, error };
}

/** What crosses to the renderer of any failure: codes and words, never a stack or a secret. */
export function ipcErrorOf(error: unknown): IpcError {
  if (error instanceof ApiError) {
    const field = error.details['field'];
    return {
      code: error.errorCode ?? `HTTP_${error.status}`,
      message: error.msg,
      status: error.status,
      ...(error.operationId !== undefined && { operationId: error.operationId }),
      ...(typeof field === 'string' && { field }),
    };
  }
  if (error instanceof AppError) {
    return { code: error.code, message: error.message, ...(error.field && { field: error.field }) };
  }
  if (error instanceof SshError) {
    // `file-exists` → SSH_FILE_EXISTS, in the style of the app's other codes; the paths let the
    // window name the files it asks about.
    return {
      code: `SSH_${error.code.toUpperCase().replaceAll('-', '_')}`,
      message: error.message,
      ...(error.paths.length > 0 && { paths: [...error.paths] }),
    };
  }
  if (error instanceof NetworkError) return { code: 'NETWORK_ERROR', message: error.message };
  if (error instanceof ClientError) return { code: `CLIENT_${error.name}`, message: error.message };
  return {
    code: 'IPC_HANDLER_FAILED',
    message: error instanceof Error ? error.message : String(error),
  };
}
