import type { IpcError } from '../../shared/app/ipc/contract.ts';
import { AppError } from '../errors.ts';

/** What went wrong, for code to branch on; the message is for people. */
export type SshErrorCode =
  | 'invalid-input'
  | 'invalid-name'
  | 'outside-folder'
  | 'not-a-folder'
  | 'file-exists'
  | 'symlink'
  | 'not-a-file'
  | 'file-too-large'
  | 'invalid-public-key'
  | 'invalid-certificate'
  | 'certificate-mismatch'
  | 'key-changed'
  | 'certificate-expired'
  | 'unknown-saved'
  | 'key-generation-failed'
  | 'agent-unavailable'
  | 'agent-failed'
  | 'io';

export class SshError extends AppError {
  declare readonly code: SshErrorCode;
  /** For `file-exists`: the paths that exist, so a UI can ask whether to replace them. */
  readonly paths: readonly string[];

  /** `options.field` is the request's field at fault (`target.folder`), so a form can point at it. */
  constructor(
    code: SshErrorCode,
    message: string,
    options?: ErrorOptions & { paths?: readonly string[]; field?: string },
  ) {
    super(code, message, options?.field, options);
    this.name = 'SshError';
    this.paths = options?.paths ?? [];
  }

  /**
   * `file-exists` → SSH_FILE_EXISTS, in the style of the app's other codes; the paths let the
   * window name the files it asks about.
   */
  override toIpcError(): IpcError {
    return {
      ...super.toIpcError(),
      code: `SSH_${this.code.toUpperCase().replaceAll('-', '_')}`,
      ...(this.paths.length > 0 && { paths: [...this.paths] }),
    };
  }
}

/** The system's code of a file system failure (`ENOENT`, `EACCES`…). */
export const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** A file system failure, worded for people with the path it concerns. */
export function ioError(what: string, file: string, error: unknown): SshError {
  const code = errnoOf(error);
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'ENOSPC'
        ? 'the disk is full'
        : code === 'ENOENT'
          ? 'it does not exist'
          : code === 'EROFS'
            ? 'the disk is read-only'
            : ((error as Error).message ?? String(error));
  return new SshError('io', `Could not ${what} ${file}: ${why}`, { cause: error });
}
