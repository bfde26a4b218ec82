import { z } from 'zod';

/*
 * "Expose a service": one guided flow that creates a tunnel group backend, an HTTPS edge, its
 * route with the chosen protection, and a credential when none fits. The request is checked
 * loosely here (sizes and shapes) and field by field in core with the API's own schemas, so a
 * refusal carries the API's code and names the form's field.
 */

const text = z.string().max(1_000);

/** Route modules a service may be protected by, in the API's write forms. */
const ExposeProtection = z.strictObject({
  ip_restriction: z.unknown().optional(),
  oidc: z.unknown().optional(),
  oauth: z.unknown().optional(),
});
export type ExposeProtection = z.input<typeof ExposeProtection>;

export const ExposeRequest = z.strictObject({
  /** What the service is called: the backend's and the edge's description. */
  name: text,
  /** Where it is served: `<host>:<port>`. */
  hostport: text,
  /** The tunnel group labels: the agents whose labels include all of them serve it. */
  labels: z.record(z.string().max(200), z.string().max(200)),
  protection: ExposeProtection.default(() => ({})),
});
export type ExposeRequest = z.input<typeof ExposeRequest>;
export type CheckedExposeRequest = z.output<typeof ExposeRequest>;

const EXPOSE_STEPS = ['backend', 'edge', 'route', 'credential'] as const;
export type ExposeStepKind = (typeof EXPOSE_STEPS)[number];

/** One thing the flow will do, in words ("Create an HTTPS edge on web.example.com:443"). */
export type ExposeStep = { readonly kind: ExposeStepKind; readonly words: string };

/** Which credential the agent will use: one made now, or an existing one whose ACL fits. */
export type ExposeCredential =
  | { readonly kind: 'create' }
  | { readonly kind: 'existing'; readonly id: string; readonly name: string };

export type ExposePlan = {
  readonly steps: readonly ExposeStep[];
  readonly credential: ExposeCredential;
  /** The address the service will answer at. */
  readonly url: string;
  /** What the agent binds: `key=value` for each label. */
  readonly binds: readonly string[];
};

export type ExposeCreated = {
  readonly outcome: 'created';
  readonly url: string;
  readonly binds: readonly string[];
  readonly backendId: string;
  readonly edgeId: string;
  readonly routeId: string;
  readonly credential: {
    readonly id: string;
    readonly name: string;
    /** Only for a credential made by this run: the API never shows a token again. */
    readonly token: string | null;
  };
};

export type ExposeFailed = {
  readonly outcome: 'failed';
  /** The step that failed, in the plan's words. */
  readonly step: string;
  readonly code: string;
  readonly message: string;
  readonly field?: string | undefined;
  /** What this run created and could not delete again, in words; empty when nothing is left. */
  readonly leftBehind: readonly string[];
};

export type ExposeResult = ExposeCreated | ExposeFailed;

/** A step of the run as it happens, for the dialog's progress. */
export type ExposeProgress = {
  readonly step: number;
  readonly total: number;
  readonly words: string;
  readonly state: 'creating' | 'created' | 'failed' | 'undoing' | 'undone' | 'left';
};

const answer = <T>() => z.custom<T>();

export const exposeCalls = {
  /** A hostport the account can use for a service of this name. */
  'expose.suggest': {
    args: z.tuple([z.strictObject({ name: text })]),
    result: answer<{ hostport: string }>(),
  },
  /** What Create will do, in words; refuses a bad input at its field. */
  'expose.plan': { args: z.tuple([ExposeRequest]), result: answer<ExposePlan>() },
  /** Creates in dependency order; on a failure deletes what it created, in reverse. */
  'expose.run': { args: z.tuple([ExposeRequest]), result: answer<ExposeResult>() },
} as const;

export const exposeEvents = { 'expose.progress': answer<ExposeProgress>() } as const;
