import { z } from 'zod';

export type FaultRule = {
  kind: 'latency' | 'status' | 'rateLimit' | 'drop';
  latencyMs?: number;
  status?: 500 | 502 | 503 | 504;
  retryAfterSeconds?: number;
  method?: string;
  pathPrefix?: string;
  count?: number;
  probability?: number;
};

export interface FaultController {
  add(rule: FaultRule): void;
  clear(): void;
  list(): FaultRule[];
}

/** Checks a rule from a caller (library or HTTP): every field in range, each kind with its own. */
const FaultRuleSchema = z
  .strictObject({
    kind: z.enum(['latency', 'status', 'rateLimit', 'drop']),
    latencyMs: z.int().min(0).max(600_000).optional(),
    status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    retryAfterSeconds: z.int().min(0).max(86_400).optional(),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/)
      .optional(),
    pathPrefix: z.string().startsWith('/').optional(),
    count: z.int().min(1).optional(),
    probability: z.number().min(0).max(1).optional(),
  })
  .superRefine((rule, ctx) => {
    const own = {
      latency: 'latencyMs',
      status: 'status',
      rateLimit: 'retryAfterSeconds',
      drop: '',
    };
    for (const field of ['latencyMs', 'status', 'retryAfterSeconds'] as const)
      if (rule[field] !== undefined && own[rule.kind] !== field)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `does not apply to kind "${rule.kind}"`,
        });
    if (rule.kind === 'latency' && rule.latencyMs === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['latencyMs'],
        message: 'is required for kind "latency"',
      });
  });

export function parseFaultRule(input: unknown): FaultRule {
  const result = FaultRuleSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new TypeError(
    `invalid fault rule: ${issue?.path.join('.') || 'rule'} ${issue?.message ?? ''}`,
  );
}

/** What the request pipeline does about the faults matching one request. */
export type FaultOutcome = {
  readonly delayMs: number;
  /** The fault that answers instead of the API, if any: the first non-latency rule. */
  readonly answer: FaultRule | undefined;
};

const NONE: FaultOutcome = { delayMs: 0, answer: undefined };

export class Faults implements FaultController {
  private rules: { rule: FaultRule; remaining: number }[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  add(rule: FaultRule): void {
    const checked = parseFaultRule(rule);
    this.rules.push({ rule: checked, remaining: checked.count ?? Infinity });
  }

  clear(): void {
    this.rules = [];
  }

  /** Copies, with `count` showing what is left of a counted rule. */
  list(): FaultRule[] {
    return this.rules.map(({ rule, remaining }) =>
      rule.count === undefined ? { ...rule } : { ...rule, count: remaining },
    );
  }

  /** Applies the rules to one request: latencies add up; the first other rule answers. */
  take(method: string, path: string): FaultOutcome {
    if (this.rules.length === 0) return NONE;
    let delayMs = 0;
    let answer: FaultRule | undefined;
    for (const entry of this.rules) {
      const { rule } = entry;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (rule.pathPrefix !== undefined && !path.startsWith(rule.pathPrefix)) continue;
      if (rule.kind !== 'latency' && answer) continue;
      if (this.random() >= (rule.probability ?? 1)) continue;
      entry.remaining--;
      if (rule.kind === 'latency') delayMs += rule.latencyMs ?? 0;
      else answer = rule;
    }
    this.rules = this.rules.filter((entry) => entry.remaining > 0);
    return delayMs === 0 && !answer ? NONE : { delayMs, answer };
  }
}
