import { Emitter } from '../emitter.ts';
import type {
  IpcArgs,
  IpcCallName,
  IpcError,
  IpcEvent,
  IpcEventName,
  IpcEventPayload,
  IpcResult,
} from './contract.ts';

/*
 * The renderer's side of every Bridge, kept free of zod and of anything heavy: it is bundled
 * into the sandboxed preload and into the renderer.
 */

export type EventListener<E extends IpcEventName> = (payload: IpcEventPayload<E>) => void;

/** What the renderer holds: Electron's preload or browser mode's HTTP client implements it. */
export interface Bridge {
  invoke<N extends IpcCallName>(name: N, ...args: IpcArgs<N>): Promise<IpcResult<N>>;
  /** Listens to one event of the contract; returns the function that stops listening. */
  on<E extends IpcEventName>(name: E, listener: EventListener<E>): () => void;
}

/** What crosses the wire for every call: a value or an error, never a thrown exception. */
export type IpcReply = { ok: true; value: unknown } | { ok: false; error: IpcError };

/** The single Electron channel that carries every call; the call's name travels inside. */
export const IPC_INVOKE_CHANNEL = 'burrow:invoke';
/** The single channel (Electron) or stream (browser mode) that carries every event. */
export const IPC_EVENT_CHANNEL = 'burrow:event';

export class BridgeCallError extends Error {
  readonly code: string;
  readonly operationId: string | undefined;
  readonly status: number | undefined;
  readonly field: string | undefined;
  readonly paths: readonly string[] | undefined;
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.operationId = error.operationId;
    this.status = error.status;
    this.field = error.field;
    this.paths = error.paths;
  }
}

/** Turns a reply back into a value or a thrown error, on the renderer's side of any Bridge. */
export function settleReply<T>(reply: IpcReply): T {
  if (reply.ok) return reply.value as T;
  throw new BridgeCallError(reply.error);
}

/**
 * One transport, many listeners: both bridges receive every event on one channel and hand each
 * to the listeners of its name. A listener that throws does not stop the others.
 */
export function createEventFanout(): {
  on: Bridge['on'];
  deliver(event: IpcEvent): void;
} {
  const byName = new Map<string, Emitter<unknown>>();
  return {
    on(name, listener) {
      let emitter = byName.get(name);
      if (!emitter) byName.set(name, (emitter = new Emitter(name)));
      return emitter.subscribe(listener as (payload: unknown) => void);
    },
    deliver(event) {
      byName.get(event.name)?.emit(event.payload);
    },
  };
}
