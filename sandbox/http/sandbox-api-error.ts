import { ERRORS, type ErrorName } from '../../shared/api/errors/errors.ts';

export type ErrorDetails = Readonly<Record<string, string>>;

/**
 * A condition of the API's error table, thrown anywhere below the HTTP layer and answered there.
 * Named apart from the client's `ApiError` (core/api/errors.ts), which reads such answers.
 */
export class SandboxApiError extends Error {
  constructor(
    readonly errorName: ErrorName,
    message: string = ERRORS[errorName].condition,
    readonly details: ErrorDetails = {},
    /** Only injected faults answer with a status other than their code's. */
    readonly status: number = ERRORS[errorName].status,
  ) {
    super(message);
  }
}

/** The spec's error body. */
export function errorBody(error: SandboxApiError, operationId: string) {
  return {
    error_code: ERRORS[error.errorName].code,
    status_code: error.status,
    msg: error.message,
    details: { operation_id: operationId, ...error.details },
  };
}
