import type { IpcError } from '../../../shared/app/ipc/contract.ts';

/*
 * A form's problem goes to one place: beside the field it names, or, naming none of the form's
 * fields, at the form's top with its code. Never both.
 */

/** The problem `field` shows beside itself. */
export function problemAt(problem: IpcError | undefined, field: string): IpcError | undefined {
  return problem?.field === field ? problem : undefined;
}

/** The problem the form shows at its top: one none of its `fields` shows. */
export function formProblem(
  problem: IpcError | undefined,
  fields: readonly string[],
): IpcError | undefined {
  return problem && !fields.includes(problem.field ?? '') ? problem : undefined;
}
