import { hostLabel } from '../../../../shared/app/host-label.ts';
import type { IpcError } from '../../../../shared/app/ipc/contract.ts';
import type { ExposeRequest } from '../../../../shared/app/ipc/expose.ts';
import type { Values } from '../../resources/form/form.ts';
import {
  initialProtectionValues,
  protectionOf,
  type Protection,
  type ProtectionModule,
} from './protection.ts';

/** The dialog's steps before Create, in order. */
export const STEPS = ['where', 'agents', 'protection', 'plan'] as const;
export type Step = (typeof STEPS)[number];

export const STEP_TITLES: Readonly<Record<Step, string>> = {
  where: 'Where it is served',
  agents: 'Which agents serve it',
  protection: 'Who may reach it',
  plan: 'What Burrow will create',
};

/**
 * Everything typed into the flow, kept across Back and Next (a step's fields come and go; the
 * values stay here), and the request it makes.
 */
export class ExposeDraft {
  name = $state('');
  hostport = $state('');
  /** Until the person types a hostport, it follows the name (a suggestion of core's). */
  hostportTyped = $state(false);
  labels = $state<Record<string, string>>({});
  labelsTyped = $state(false);
  protection = $state<Protection>('none');
  modules = $state<Record<ProtectionModule, Values>>(initialProtectionValues());

  /** Labels start as `service=<name>` once the name is known, until the person edits them. */
  defaultLabels(): void {
    if (!this.labelsTyped) this.labels = { service: hostLabel(this.name) };
  }

  request(): ExposeRequest {
    return {
      name: this.name,
      hostport: this.hostport,
      labels: { ...this.labels },
      protection: protectionOf(this.protection, this.modules),
    };
  }
}

/** The step whose field a refusal names, so that the dialog goes back to it. */
export function stepOf(problem: IpcError): Step {
  const field = problem.field ?? '';
  if (field === 'name' || field === 'hostport') return 'where';
  if (field.startsWith('labels')) return 'agents';
  if (field.startsWith('protection')) return 'protection';
  return 'plan';
}
