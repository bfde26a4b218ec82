import type { IpcImplementation } from '../../../core/ipc/dispatch.ts';
import type { AppHandlers } from '../../../core/ipc/handlers.ts';

/**
 * An implementation that answers `app.info` and refuses the rest: what the server's own checks
 * need, with no profile, keychain or sandbox behind it. The whole app is driven for real by the
 * end-to-end suite.
 */
export function appInfoOnly(version: string): IpcImplementation {
  const refuse = () => {
    throw new Error('not part of this test');
  };
  const calls = new Proxy({} as AppHandlers, {
    get: (_, name) =>
      name === 'app.info' ? () => ({ name: 'Burrow', version, shell: 'browser' }) : refuse,
  });
  return { calls, call: refuse, listAll: refuse };
}
