import type { AppCallName, IpcCheckedArgs, IpcResult } from '../../shared/app/ipc/contract.ts';

/**
 * What carries each of the app's own calls, checked arguments in, result out. A ground piece:
 * each service's handlers.ts implements its part, the composition (core/burrow.ts) puts them
 * together and the dispatcher calls them, so the services never reach up to the dispatcher.
 */
export type AppHandlers = {
  [N in AppCallName]: (...args: IpcCheckedArgs<N>) => Promise<IpcResult<N>> | IpcResult<N>;
};

/** One room's part of the handlers: the calls its contract file declares (`typeof sshCalls`). */
export type HandlersOf<Calls> = Pick<AppHandlers, keyof Calls & AppCallName>;
