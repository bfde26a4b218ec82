import type { IpcError } from '../../../../shared/app/ipc/contract.ts';
import type { ExposeProtection } from '../../../../shared/app/ipc/expose.ts';
import {
  bodyOf,
  initialValues,
  placeRefusal,
  problemsOf,
  type Problem,
  type Values,
} from '../../resources/form/form.ts';
import type { Field, ModuleSpec } from '../../resources/kinds/kind-shape.ts';
import { ROUTE_MODULES } from '../../resources/kinds/route-modules.ts';

/** How a service may be protected: one route module, or none. */
export const PROTECTIONS = ['none', 'ip_restriction', 'oidc', 'oauth'] as const;
export type Protection = (typeof PROTECTIONS)[number];
export type ProtectionModule = Exclude<Protection, 'none'>;

export const PROTECTION_LABELS: Readonly<Record<Protection, string>> = {
  none: 'None: anyone with the address',
  ip_restriction: 'IP policy: only the addresses of a policy',
  oidc: 'OpenID Connect sign-in',
  oauth: 'OAuth sign-in (GitHub, Google, …)',
};

// What a first service needs; the route's own screen has every setting afterwards.
const LEFT_FOR_LATER = new Set([
  'enabled',
  'cookie_prefix',
  'inactivity_timeout',
  'maximum_duration',
  'options_passthrough',
  'auth_check_interval',
]);

/** The route module's form, as the route's own screen has it, with what a first service needs. */
export function protectionForm(module: ProtectionModule): {
  readonly spec: ModuleSpec;
  readonly fields: readonly Field[];
} {
  const spec = ROUTE_MODULES.find((m) => m.name === module);
  if (!spec) throw new Error(`no route module ${module}`);
  return { spec, fields: spec.fields.filter((f) => !LEFT_FOR_LATER.has(f.name)) };
}

export function initialProtectionValues(): Record<ProtectionModule, Values> {
  return {
    ip_restriction: initialValues(protectionForm('ip_restriction').fields),
    oidc: initialValues(protectionForm('oidc').fields),
    oauth: initialValues(protectionForm('oauth').fields),
  };
}

/** The module as the API writes it, from the form's values. */
function protectionBody(module: ProtectionModule, values: Values): Values {
  const { spec, fields } = protectionForm(module);
  const body = bodyOf(fields, values);
  return spec.shape ? spec.shape.write(body) : body;
}

export function protectionOf(choice: Protection, values: Record<ProtectionModule, Values>) {
  if (choice === 'none') return {} satisfies ExposeProtection;
  return { [choice]: protectionBody(choice, values[choice]) } satisfies ExposeProtection;
}

/** What the form can tell before any call, each beside its field. */
export function protectionProblems(
  module: ProtectionModule,
  values: Values,
): Readonly<Record<string, Problem>> {
  const { fields } = protectionForm(module);
  return problemsOf(
    fields,
    values,
    `httpsEdgeRoutes.${module}.replace`,
    protectionBody(module, values),
  ).fields;
}

const PREFIX = 'protection.';

/**
 * Core's refusal of the protection (`protection.oidc.issuer: <the API's words>`) placed beside
 * the form's field, as the route's own form places the API's.
 */
export function placeProtectionRefusal(
  module: ProtectionModule,
  values: Values,
  problem: IpcError,
): { name: string; problem: Problem } | undefined {
  if (!problem.field?.startsWith(`${PREFIX}${module}`)) return undefined;
  const field = problem.field.slice(`${PREFIX}${module}.`.length);
  const message = problem.message.startsWith(`${problem.field}: `)
    ? problem.message.slice(problem.field.length + 2)
    : problem.message;
  const { fields } = protectionForm(module);
  // The API names its own path (`oidc.issuer`); the form's fields are the module's.
  return placeRefusal(fields, values, {
    ...problem,
    field,
    message: message.replace(`"${module}.`, '"'),
  });
}
