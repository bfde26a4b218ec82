/**
 * Fuzz suite of the IPC contract: malformed calls drawn from a seeded PRNG, across every channel,
 * with malformed names as well as malformed arguments. Over HTTP through browser mode's server
 * (what JSON can carry), then straight into the dispatcher (what a renderer's structured clone or
 * a bug could hand it: throwing `toJSON`/`toString`, proxies, BigInts, symbols). Every call is
 * answered in the contract's reply shape, HTTP 200, and the server stays up. Replay a run with
 * FUZZ_SEED=<seed>.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dispatchIpc } from '../../../core/ipc/dispatch.ts';
import { EventHub } from '../../../core/ipc/events.ts';
import { API_CALLS } from '../../../shared/app/ipc/api-calls.ts';
import { appCalls } from '../../../shared/app/ipc/contract.ts';
import { PAGE_SECRET_HEADER } from '../../../shared/app/ipc/browser-mode.ts';
import { startWebServer, type WebServer } from '../../../web/server.ts';
import { Prng } from '../sandbox/blackbox/prng.ts';
import { fuzzCount } from '../../support/fuzz-size.ts';
import { appInfoOnly } from './support.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 0x1bc_f022);
// A fifth of each in `npm test`, the first of the full run's (BURROW_FUZZ=full; tests/support/fuzz-size.ts).
const OVER_HTTP = fuzzCount(3_000, 600);
const DIRECT = fuzzCount(7_000, 1_400);
const CONCURRENCY = 8;

const NAMES = [...Object.keys(appCalls), ...API_CALLS.keys()];
/** Names an object answers to without owning them: a lookup by `in` or `[]` would find them. */
const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'prototype',
  'isPrototypeOf',
];

let server: WebServer;
/** The page secret of the test's tab. */
let page: string;
let agent: Agent;
const implementation = appInfoOnly('1.0.0');

beforeAll(async () => {
  const rendererDir = path.join(await mkdtemp(path.join(tmpdir(), 'burrow-fuzz-')), 'renderer');
  await mkdir(rendererDir);
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Burrow</title>');
  server = await startWebServer({ rendererDir, implementation, events: new EventHub() });
  agent = new Agent({ connections: CONCURRENCY });
  const token = new URL(server.url).hash.replace('#token=', '');
  const session = await request(`${server.origin}/ipc/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    dispatcher: agent,
  });
  ({ page } = (await session.body.json()) as { page: string });
});

afterAll(async () => {
  await agent?.close();
  await server?.close();
});

/**
 * A value nested `depth` deep, kept folded: JSON.stringify overflows its stack past a few
 * thousand levels, so the test writes the text itself (`text`) or builds the value (`real`).
 */
class Deep {
  constructor(
    readonly depth: number,
    readonly leaf: unknown,
    readonly object: boolean,
  ) {}
}

function text(value: unknown): string {
  if (value instanceof Deep) {
    const [open, close] = value.object ? ['{"a":', '}'] : ['[', ']'];
    return open.repeat(value.depth) + text(value.leaf) + close.repeat(value.depth);
  }
  if (Array.isArray(value)) return `[${value.map(text).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function real(value: unknown): unknown {
  if (value instanceof Deep) {
    let built = real(value.leaf);
    for (let i = 0; i < value.depth; i++) built = value.object ? { a: built } : [built];
    return built;
  }
  if (Array.isArray(value)) return value.map(real);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, real(v)]));
  return value;
}

/** A JSON value, now and then a deep or a huge one. */
function jsonValue(prng: Prng, depth = 0): unknown {
  switch (prng.int(0, depth > 2 ? 5 : 9)) {
    case 0:
      return null;
    case 1:
      return prng.bool();
    case 2:
      return prng.pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308]);
    case 3:
      return prng.string(prng.int(0, 40), 'abc.-_/\\%$ {}"\'\u0000é😀');
    case 4:
      return prng.pick(NAMES);
    case 5:
      return 'x'.repeat(prng.int(1, 200_000));
    case 6:
      return new Deep(prng.int(1, prng.bool(0.2) ? 50_000 : 100), jsonValue(prng, 3), prng.bool());
    case 7:
      return Array.from({ length: prng.int(0, 5) }, () => jsonValue(prng, depth + 1));
    case 8:
      return Object.fromEntries(
        Array.from({ length: prng.int(0, 5) }, () => [
          prng.pick([...PROTOTYPE_NAMES, 'params', 'body', 'query', 'id', 'name', 'requestId']),
          jsonValue(prng, depth + 1),
        ]),
      );
    default:
      return [jsonValue(prng, depth + 1)];
  }
}

/** A name the contract does not have, or one it has (then the arguments are what is wrong). */
function jsonName(prng: Prng): unknown {
  switch (prng.int(0, 7)) {
    case 0:
      return prng.pick(PROTOTYPE_NAMES);
    case 1:
      return new Deep(prng.int(1, 100_000), prng.pick(NAMES), false);
    case 2:
      return `${prng.pick(NAMES)}${'x'.repeat(prng.int(1, 300_000))}`;
    case 3: {
      // One character off a real name, or its case changed.
      const name = prng.pick(NAMES);
      const at = prng.int(0, name.length - 1);
      return prng.bool()
        ? name.toUpperCase()
        : name.slice(0, at) + prng.pick(['', ' ', '.', '\u0000', 'é']) + name.slice(at + 1);
    }
    case 4:
      return jsonValue(prng);
    default:
      return prng.pick(NAMES);
  }
}

function throwing(): never {
  throw new Error('thrown by the sender');
}

/** What only a direct caller can hand the dispatcher: values whose every touch may throw. */
function hostileValue(prng: Prng): unknown {
  switch (prng.int(0, 7)) {
    case 0:
      return { toJSON: throwing, toString: throwing, valueOf: throwing };
    case 1:
      return new Proxy({}, { get: throwing, ownKeys: throwing, getPrototypeOf: throwing });
    case 2: {
      const { proxy, revoke } = Proxy.revocable([], {});
      revoke();
      return proxy;
    }
    case 3:
      return BigInt(prng.int(0, 1000));
    case 4:
      return Symbol(prng.pick(NAMES));
    case 5:
      return Object.defineProperty({}, 'name', { get: throwing, enumerable: true });
    case 6:
      return real(new Deep(prng.int(1, 100_000), { toJSON: throwing }, false));
    default:
      return throwing;
  }
}

/**
 * The contract's reply, whatever came in. A real call's name with arguments that happen to be
 * well-formed (`[]` for a list, or a create's missing body) is a call like any other: it may
 * answer a value, or the refusal the API itself would give (`ERR_SERVICE_300` naming the field).
 */
function expectReply(reply: unknown, name: unknown, context: string): void {
  const known = typeof name === 'string' && NAMES.includes(name);
  if (known && (reply as { ok?: unknown }).ok === true) return;
  expect(reply, context).toEqual({
    ok: false,
    error: expect.objectContaining({
      code: expect.stringMatching(
        known
          ? /^(IPC_(UNKNOWN_CALL|BAD_ARGUMENTS|BAD_REQUEST|HANDLER_FAILED)|[A-Z]+_[A-Z0-9_]+)$/
          : /^IPC_(UNKNOWN_CALL|BAD_ARGUMENTS|BAD_REQUEST|HANDLER_FAILED)$/,
      ),
      message: expect.any(String),
    }),
  });
  // A huge name comes back cut short, never echoed whole.
  expect(JSON.stringify(reply).length, context).toBeLessThan(4_000);
}

async function invoke(body: string) {
  const reply = await request(`${server.origin}/ipc/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [PAGE_SECRET_HEADER]: page },
    body,
    dispatcher: agent,
  });
  return { status: reply.statusCode, body: await reply.body.text() };
}

it(`answers ${OVER_HTTP} malformed calls over HTTP in the reply shape (seed ${SEED})`, async () => {
  const prng = new Prng(SEED);
  const cases = Array.from({ length: OVER_HTTP }, (_, i) => {
    const name = jsonName(prng);
    const args = prng.bool(0.1) ? undefined : jsonValue(prng);
    return { i, name, body: text({ name, ...(args !== undefined && { args }) }) };
  });
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const { i, name, body } = cases[next++] ?? cases[0]!;
      if (body.length > 1 << 20) continue; // The body cap's refusal is server.test.ts's.
      const reply = await invoke(body);
      const context = `case ${i} (seed ${SEED}): ${body.slice(0, 200)}`;
      expect(reply.status, context).toBe(200);
      expectReply(JSON.parse(reply.body), name, context);
      if (i % 500 === 0) {
        const alive = await invoke(JSON.stringify({ name: 'app.info', args: [] }));
        expect(JSON.parse(alive.body), context).toMatchObject({ ok: true });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}, 120_000);

it(`answers ${DIRECT} hostile calls straight to the dispatcher in the reply shape (seed ${SEED})`, async () => {
  const prng = new Prng(SEED + 1);
  for (let i = 0; i < DIRECT; i++) {
    const name = prng.bool(0.4) ? hostileValue(prng) : real(jsonName(prng));
    const args = prng.bool(0.5)
      ? [hostileValue(prng)]
      : prng.bool()
        ? hostileValue(prng)
        : real(jsonValue(prng));
    const reply = await dispatchIpc(implementation, name, args);
    expectReply(reply, name, `direct case ${i} (seed ${SEED})`);
  }
}, 120_000);
