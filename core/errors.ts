/**
 * A failure of the app's own rules (a profile that does not exist, a keychain that cannot be
 * used), worded for a person. `code` is stable for tests and the UI; `field` names the input.
 */
export class AppError extends Error {
  readonly code: string;
  readonly field: string | undefined;
  constructor(code: string, message: string, field?: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = field;
  }
}
