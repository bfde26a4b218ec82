/**
 * Fuzz suite of the sandbox: at least 10,000 malformed requests drawn from a seeded PRNG and
 * generated from the catalog. Whatever comes in, the server answers below 500, in the error
 * shape when it refuses, and stays up; and each case gets the outcome its mutation calls for (a
 * broken Authorization or Service-Version header its error, a body the shared schemas refuse
 * their error, a broken path or a huge body a refusal, …; see `Expected` in the mutator).
 * Replay a run with FUZZ_SEED=<seed>.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import type { ENDPOINTS } from '../../../shared/api/catalog/endpoints.ts';
import { ERRORS } from '../../../shared/api/errors/errors.ts';
import { ID_PREFIXES, type IdKind } from '../../../shared/api/values/ids.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { ACCOUNTS, KEYS } from './blackbox/accounts.ts';
import { schemaIssues } from './blackbox/checks.ts';
import type { Refs } from './blackbox/examples.ts';
import { CREATE_OF, Factory } from './blackbox/factory.ts';
import { errorShapeProblems } from './blackbox/http.ts';
import {
  generateCase,
  HUGE_BODY_BYTES,
  type Expected,
  type FuzzCase,
  type FuzzContext,
} from './blackbox/mutator.ts';
import { Prng } from './blackbox/prng.ts';
import { fuzzCount } from '../../support/fuzz-size.ts';

type Endpoint = (typeof ENDPOINTS)[number];

const SEED = Number(process.env['FUZZ_SEED'] ?? 0x5eed_b0b);
// 2,000 in `npm test`, the first of the full run's 10,400 (BURROW_FUZZ=full; tests/support/fuzz-size.ts).
const TOTAL = Number(process.env['FUZZ_REQUESTS'] ?? fuzzCount(10_400, 2_000));
const CONCURRENCY = 32;
const HEALTH_EVERY = 500;

let sb: { url: string; close: () => unknown };
let base: string;
let agent: Agent;
let ctx: FuzzContext;

beforeAll(async () => {
  sb = await startSandbox({ accounts: ACCOUNTS, rateLimit: 'off' });
  base = sb.url.replace(/\/+$/, '');
  agent = new Agent({
    connections: CONCURRENCY,
    keepAliveTimeout: 30_000,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const f = new Factory(apiCaller(base, KEYS.alice));
  const refs: Refs = await f.init();
  const world = new Map<IdKind, string>();
  for (const kind of CREATE_OF.keys())
    if (kind !== 'httpsEdgeRoute') world.set(kind, await f.make(kind));
  const route = await f.route(world.get('httpsEdge'));
  world.set('httpsEdgeRoute', route.id);
  ctx = {
    refs,
    apiKey: KEYS.alice,
    otherKeys: [KEYS.bob, KEYS.carol, 'no-such-key'],
    params: (e: Endpoint) => {
      const out: Record<string, string> = {};
      for (const [param, kind] of Object.entries(e.pathParams as Record<string, IdKind>))
        out[param] =
          param === 'edge_id' ? route.edge_id : (world.get(kind) ?? `${ID_PREFIXES[kind]}Unknown1`);
      return out;
    },
  };
});

afterAll(async () => {
  await agent?.close();
  await sb?.close();
});

type Outcome = { status: number; text: string } | { error: string };

async function send(c: FuzzCase): Promise<Outcome> {
  try {
    const res = await request(`${base}${c.path}`, {
      method: c.method as Dispatcher.HttpMethod,
      headers: c.headers,
      ...(c.body !== undefined && { body: c.body }),
      dispatcher: agent,
    });
    return { status: res.statusCode, text: await res.body.text() };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { error: `${e.code ?? ''} ${e.message ?? String(err)}` };
  }
}

async function healthy(): Promise<string | undefined> {
  const r = await send({
    category: 'health',
    method: 'GET',
    path: '/ip_policies?limit=1',
    headers: ['authorization', `Bearer ${KEYS.alice}`, 'service-version', '2'],
  });
  if ('error' in r) return `health check failed: ${r.error}`;
  return r.status === 200 ? undefined : `health check answered ${r.status} ${r.text.slice(0, 200)}`;
}

function bodyBytes(c: FuzzCase): number {
  if (c.body === undefined) return 0;
  return typeof c.body === 'string' ? Buffer.byteLength(c.body) : c.body.length;
}

/** How the answer misses the case's expected outcome, if it does. */
function expectationProblem(
  expected: Expected,
  status: number,
  /** Undefined for HEAD, whose answer has no body. */
  text: string | undefined,
): string | undefined {
  if (expected === undefined) return undefined;
  if (expected === 'refused')
    return status >= 400 && status < 500 ? undefined : `${status}, expected a refusal (4xx)`;
  const { status: wanted, code } = ERRORS[expected];
  const got = text === undefined ? code : /"error_code":"(ERR_SERVICE_\d+)"/.exec(text)?.[1];
  return status === wanted && got === code
    ? undefined
    : `${status} ${got ?? ''}, expected ${wanted} ${code} (${expected})`;
}

function judge(c: FuzzCase, o: Outcome): string | undefined {
  const what = `[${c.category}] ${c.method} ${c.path.slice(0, 120)} body=${typeof c.body === 'string' ? c.body.slice(0, 120) : `${bodyBytes(c)} bytes`}`;
  if ('error' in o) {
    // A server may stop reading a huge body once it has answered 413; the request is then cut.
    if (
      bodyBytes(c) >= HUGE_BODY_BYTES &&
      /other side closed|EPIPE|ECONNRESET|socket/i.test(o.error)
    )
      return undefined;
    return `${what} → transport error ${o.error}`;
  }
  if (o.status >= 500) return `${what} → ${o.status} ${o.text.slice(0, 300)}`;
  const refusal = expectationProblem(c.expect, o.status, c.method === 'HEAD' ? undefined : o.text);
  if (refusal) return `${what} → ${refusal}`;
  if (c.method === 'HEAD') return undefined; // no body to judge
  let body: unknown;
  try {
    body = o.text === '' ? null : JSON.parse(o.text);
  } catch {
    return `${what} → ${o.status} with a body that is not JSON: ${o.text.slice(0, 200)}`;
  }
  if (o.status >= 200 && o.status < 300) {
    if (c.endpoint && c.method === c.endpoint.method) {
      if (c.endpoint.status !== o.status)
        return `${what} → ${o.status}, the endpoint answers ${c.endpoint.status}`;
      if (c.endpoint.response) {
        const issues = schemaIssues(c.endpoint.response, body);
        if (issues.length > 0)
          return `${what} → ${o.status} not in the response schema: ${issues.slice(0, 3).join('; ')}`;
      } else if (body !== null) return `${what} → ${o.status} with a body`;
    }
    return undefined;
  }
  const problems = errorShapeProblems(o.status, body);
  return problems.length > 0
    ? `${what} → ${o.status} not in the error shape: ${problems.join('; ')}`
    : undefined;
}

// Generating the cases (their expected outcomes through the shared schemas included) and sending
// them takes half a minute alone; beside the other suites on a small machine, several.
const FUZZ_TIMEOUT_MS = 300_000;

it(
  `${TOTAL} malformed requests: no 5xx, every refusal in the error shape and as expected, the server stays up`,
  { timeout: FUZZ_TIMEOUT_MS },
  async () => {
    console.log(
      `fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${TOTAL} requests, ${CONCURRENCY} in flight`,
    );
    const rng = new Prng(SEED);
    const cases = Array.from({ length: TOTAL }, () => generateCase(rng, ctx));
    const violations: string[] = [];
    const statuses = new Map<string, number>();
    let fiveHundreds = 0;
    let next = 0;
    let done = 0;
    const started = Date.now();

    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++] as FuzzCase;
        const o = await send(c);
        const tag = 'error' in o ? 'transport' : `${o.status}`;
        statuses.set(tag, (statuses.get(tag) ?? 0) + 1);
        if (!('error' in o) && o.status >= 500) fiveHundreds++;
        const v = judge(c, o);
        if (v) violations.push(v);
        done++;
        if (done % HEALTH_EVERY === 0) {
          const h = await healthy();
          if (h) violations.push(`after ${done} requests: ${h}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const finalHealth = await healthy();

    const byCategory = new Map<string, number>();
    for (const c of cases) byCategory.set(c.category, (byCategory.get(c.category) ?? 0) + 1);
    console.log(
      `fuzz: ${done} requests in ${Date.now() - started} ms; categories ${JSON.stringify(Object.fromEntries(byCategory))}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ${violations.length} violations`,
    );
    if (violations.length > 0) console.log(violations.slice(0, 40).join('\n'));

    expect(done).toBe(TOTAL);
    expect(TOTAL).toBeGreaterThanOrEqual(fuzzCount(10_000, 2_000));
    expect(finalHealth, 'the server answers a valid request at the end').toBeUndefined();
    expect(fiveHundreds, 'no 5xx').toBe(0);
    expect(violations.slice(0, 25), `${violations.length} violations`).toEqual([]);
  },
);
