import type { IpcImplementation } from '../../core/ipc/dispatch.ts';
import type { AppHandlers } from '../../core/ipc/handlers.ts';
import { appCalls, type AppCallName } from '../../shared/app/ipc/contract.ts';

type AnyHandler = (...args: unknown[]) => unknown;

/**
 * The implementation with every app call's answer parsed with the contract's `result` schema:
 * a handler whose real answer drifts from what the contract tells the window fails the test
 * that made the call (the reply's message names the call and the field). The answer itself is
 * passed on untouched. The `api.*` answers need no such wrapper: the client parses every one
 * with its endpoint's response schema.
 */
export function checkingResults(implementation: IpcImplementation): IpcImplementation {
  const calls = Object.fromEntries(
    Object.entries(implementation.calls).map(([name, handler]) => [
      name,
      async (...args: unknown[]) => {
        const value = await (handler as AnyHandler)(...args);
        const parsed = appCalls[name as AppCallName].result.safeParse(value);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const where = issue?.path.join('.') || 'the answer';
          throw new Error(`${name} answered outside its contract: ${where} ${issue?.message}`);
        }
        return value;
      },
    ]),
  ) as AppHandlers;
  return { ...implementation, calls };
}
