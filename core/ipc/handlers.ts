import type { AppInfo } from '../../shared/ipc/contract.ts';
import type { IpcHandlers } from './dispatch.ts';

export interface HandlerContext {
  version: string;
  shell: AppInfo['shell'];
}

/** The implementation of the IPC contract; electron/ and web/ only carry calls to it. */
export function createIpcHandlers(context: HandlerContext): IpcHandlers {
  return {
    'app.info': () => ({ name: 'Burrow', version: context.version, shell: context.shell }),
  };
}
