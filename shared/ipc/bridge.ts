import type { IpcArgs, IpcCallName, IpcError, IpcResult } from './contract.ts';

/*
 * The renderer's side of every Bridge, kept free of zod and of anything heavy: it is bundled
 * into the sandboxed preload and into the renderer.
 */

/** What the renderer holds: Electron's preload or browser mode's HTTP client implements it. */
export interface Bridge {
  invoke<N extends IpcCallName>(name: N, ...args: IpcArgs<N>): Promise<IpcResult<N>>;
}

/** What crosses the wire for every call: a value or an error, never a thrown exception. */
export type IpcReply = { ok: true; value: unknown } | { ok: false; error: IpcError };

/** The single Electron channel that carries every call; the call's name travels inside. */
export const IPC_INVOKE_CHANNEL = 'burrow:invoke';

export class BridgeCallError extends Error {
  readonly code: string;
  readonly operationId: string | undefined;
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.operationId = error.operationId;
  }
}

/** Turns a reply back into a value or a thrown error, on the renderer's side of any Bridge. */
export function settleReply<T>(reply: IpcReply): T {
  if (reply.ok) return reply.value as T;
  throw new BridgeCallError(reply.error);
}
