import type { IpcError } from '../shared/app/ipc/contract.ts';

/**
 * A failure of the app's own rules (a profile that does not exist, a keychain that cannot be
 * used), worded for a person. `code` is stable for tests and the UI; `field` names the input.
 */
export class AppError extends Error {
  readonly code: string;
  readonly field: string | undefined;
  constructor(code: string, message: string, field?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.field = field;
  }

  /**
   * What crosses to a window of it (`core/ipc/dispatch.ts`): a room whose errors say more (the
   * SSH files at stake) says it here, so the dispatcher reaches no room above it.
   */
  toIpcError(): IpcError {
    return { code: this.code, message: this.message, ...(this.field && { field: this.field }) };
  }
}
