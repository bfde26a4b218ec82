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

/**
 * The words `field` shows beside itself. The contract's own refusal says only the rule ("must
 * be an absolute path"), so the field's `label` leads it; a service's message is whole already.
 */
export function messageAt(
  problem: IpcError | undefined,
  field: string,
  label: string,
): string | undefined {
  const found = problemAt(problem, field);
  if (!found) return undefined;
  return found.code === 'IPC_BAD_ARGUMENTS' ? `${label} ${found.message}` : found.message;
}

/**
 * An input's ties to the problem beside it (the element `problemId`): marked invalid while there
 * is `message`, and described by it, so a screen reader says why.
 */
export function problemTies(
  message: string | undefined,
  problemId: string,
): { 'aria-invalid': 'true' | undefined; 'aria-describedby': string } {
  return { 'aria-invalid': message ? 'true' : undefined, 'aria-describedby': problemId };
}
