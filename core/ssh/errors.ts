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

export class SshError extends Error {
  readonly code: SshErrorCode;
  /** For `file-exists`: the paths that exist, so a UI can ask whether to replace them. */
  readonly paths: readonly string[];
  /** The request's field at fault (`target.folder`), so a form can point at it. */
  readonly field: string | undefined;

  constructor(
    code: SshErrorCode,
    message: string,
    options?: ErrorOptions & { paths?: readonly string[]; field?: string },
  ) {
    super(message, options);
    this.name = 'SshError';
    this.code = code;
    this.paths = options?.paths ?? [];
    this.field = options?.field;
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
