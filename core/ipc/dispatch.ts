import type { z } from 'zod';
import { ApiError, ClientError, NetworkError } from '../api/errors.ts';
import type { EndpointRequest } from '../api/types.ts';
import { AppError } from '../errors.ts';
import { validateBody } from '../../shared/api/errors/validate.ts';
import {
  API_CALLS,
  type ApiCallEntry,
  type ListAllRequest,
} from '../../shared/app/ipc/api-calls.ts';
import {
  appCalls,
  isAppCallName,
  type AppCallName,
  type IpcError,
} from '../../shared/app/ipc/contract.ts';
import type { IpcReply } from '../../shared/app/ipc/bridge.ts';
import type { AppHandlers } from './handlers.ts';

type ListAllEntry = Extract<ApiCallEntry, { listAll: true }>;

/** Everything the contract's calls reach: the app's own calls, and the API's by catalog entry. */
export interface IpcImplementation {
  readonly calls: AppHandlers;
  call(entry: ApiCallEntry, request: EndpointRequest | undefined): Promise<unknown>;
  listAll(entry: ListAllEntry, request: ListAllRequest | undefined): Promise<unknown>;
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
    return fail({ code: 'IPC_UNKNOWN_CALL', message: `unknown call ${nameOf(name)}` });
  }
  const schema = api ? api.args : appCalls[name as AppCallName].args;
  let checked: unknown[];
  try {
    const parsed = schema.safeParse(args);
    if (!parsed.success) return fail(badArguments(String(name), parsed.error.issues[0]));
    checked = parsed.data as unknown[];
    const refused = api && bodyRefusal(api, checked[0] as EndpointRequest | undefined);
    if (refused) return fail(refused);
  } catch {
    // A proxy or a throwing getter among the arguments (read by the check, the wording of its
    // issue or the body's check): they cannot be checked, so no call.
    return fail({ code: 'IPC_BAD_ARGUMENTS', message: `unreadable arguments for ${String(name)}` });
  }
  try {
    let value: unknown;
    if (api?.listAll) value = await implementation.listAll(api, checked[0] as ListAllRequest);
    else if (api) value = await implementation.call(api, checked[0] as EndpointRequest);
    // The schema above has checked the arguments against this very name's contract.
    else value = await (implementation.calls[name as AppCallName] as AnyHandler)(...checked);
    return { ok: true, value };
  } catch (error) {
    return fail(ipcErrorOf(error));
  }
}

/**
 * A name that is no call, as a message can show it: only a string is quoted (cut short), so
 * nothing the sender built (a deep array, a throwing `toJSON`, a proxy) runs or overflows here.
 */
function nameOf(name: unknown): string {
  if (typeof name !== 'string')
    return `(a call's name is a string, not ${name === null ? 'null' : typeof name})`;
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

function badArguments(name: string, issue: z.core.$ZodIssue | undefined): IpcError {
  // The first argument is the form a person filled in: its path below names the field.
  const field = issue?.path.slice(1).join('.');
  return {
    code: 'IPC_BAD_ARGUMENTS',
    message: field
      ? (issue?.message ?? 'invalid')
      : `bad arguments for ${name}: ${issue?.message ?? 'invalid'}`,
    ...(field && { field }),
  };
}

/**
 * A body the API would refuse, refused here with the code and field the API itself would name:
 * the one check of a body on its way out, with the schema the window's forms check it with.
 */
function bodyRefusal({ endpoint }: ApiCallEntry, request: EndpointRequest | undefined) {
  if (endpoint.body === null) return undefined;
  const checked = validateBody(endpoint.body, request?.body ?? {});
  if (checked.ok) return undefined;
  const { code, msg, field } = checked.error;
  return { code, message: msg, ...(field !== undefined && { field }) } satisfies IpcError;
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
  if (error instanceof AppError) return error.toIpcError();
  if (error instanceof NetworkError) return { code: 'NETWORK_ERROR', message: error.message };
  if (error instanceof ClientError) return { code: `CLIENT_${error.name}`, message: error.message };
  return {
    code: 'IPC_HANDLER_FAILED',
    message: error instanceof Error ? error.message : String(error),
  };
}
