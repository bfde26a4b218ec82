import { z } from 'zod';

/**
 * The one list of calls the renderer may make and events it may receive. Electron IPC (in the
 * app) and HTTP + server-sent events (browser mode) both carry exactly this list, and core/
 * checks every argument against these schemas before it acts: the renderer is untrusted input.
 */
export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** Where the renderer is running, so the UI can word things right ("window" vs "tab"). */
  shell: z.enum(['electron', 'browser']),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const ipcCalls = {
  'app.info': { args: z.tuple([]), result: AppInfo },
} as const;

export const ipcEvents = {} as const;

export type IpcCallName = keyof typeof ipcCalls;
export type IpcArgs<N extends IpcCallName> = z.input<(typeof ipcCalls)[N]['args']>;
/** Arguments as the handler receives them, after the contract's schema has checked them. */
export type IpcCheckedArgs<N extends IpcCallName> = z.output<(typeof ipcCalls)[N]['args']>;
export type IpcResult<N extends IpcCallName> = z.output<(typeof ipcCalls)[N]['result']>;
export type IpcEventName = keyof typeof ipcEvents;

export function isIpcCallName(name: unknown): name is IpcCallName {
  return typeof name === 'string' && Object.hasOwn(ipcCalls, name);
}

/** The error a call answers with when it fails; the renderer shows `message` and `code`. */
export const IpcError = z.object({
  code: z.string(),
  message: z.string(),
  operationId: z.string().optional(),
});
export type IpcError = z.infer<typeof IpcError>;
