import type { IpcError } from '../../../shared/app/ipc/contract.ts';

/** Any failure as the window shows it: the code, the words, and the operation id to copy. */
export function problemOf(error: unknown): IpcError {
  if (typeof error === 'object' && error !== null && 'code' in error && 'message' in error) {
    const e = error as {
      code: unknown;
      message: unknown;
      operationId?: unknown;
      status?: unknown;
      field?: unknown;
      paths?: unknown;
    };
    return {
      code: String(e.code),
      message: String(e.message),
      ...(typeof e.operationId === 'string' && { operationId: e.operationId }),
      ...(typeof e.status === 'number' && { status: e.status }),
      ...(typeof e.field === 'string' && { field: e.field }),
      ...(Array.isArray(e.paths) && { paths: e.paths.map(String) }),
    };
  }
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}
