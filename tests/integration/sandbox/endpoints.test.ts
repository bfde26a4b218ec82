/**
 * Black-box acceptance suite of the sandbox: every endpoint of the catalog over real HTTP, its
 * success path and the error codes of the API spec and shared/api/README.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import { SPEC_ROUTE_MODULES } from '../../support/spec.ts';
import { ENDPOINTS, type EndpointName } from '../../../shared/api/catalog/endpoints.ts';
import { ERRORS, type ErrorSpec } from '../../../shared/api/errors/errors.ts';
import { ID_PREFIXES, type IdKind } from '../../../shared/api/values/ids.ts';
import { validateBody } from '../../../shared/api/errors/validate.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { PUBLIC_KEYS } from '../../unit/shared/api/fixtures.ts';
import { ACCOUNTS, KEYS } from './blackbox/accounts.ts';
import { expectRepresentation, representationProblems, schemaIssues } from './blackbox/checks.ts';
import {
  exampleBody,
  freshSshPublicKey,
  moduleExample,
  moduleOf,
  unique,
  type Body,
  type Refs,
} from './blackbox/examples.ts';
import {
  CREATE_OF,
  Factory,
  fillPath,
  resourceKindOf,
  type ApiReply,
  type Call,
} from './blackbox/factory.ts';
import {
  errorShapeProblems,
  expectError,
  expectStatus,
  goodHeaders,
  raw,
  type ReplyBody,
} from './blackbox/http.ts';

type Endpoint = (typeof ENDPOINTS)[number];

let sb: { url: string; close: () => unknown };
let base: string;
let alice: Call;
let bob: Call;
let carol: Call;
let dave: Call;
let f: Factory;
let refs: Refs;
/** One existing resource per kind, with bare edges and a bare route, for the error cases. */
const world = new Map<IdKind, string>();
let worldRoute: { edge_id: string; id: string };

beforeAll(async () => {
  sb = await startSandbox({ accounts: ACCOUNTS, rateLimit: 'off' });
  base = sb.url.replace(/\/+$/, '');
  alice = apiCaller(base, KEYS.alice);
  bob = apiCaller(base, KEYS.bob);
  carol = apiCaller(base, KEYS.carol);
  dave = apiCaller(base, KEYS.dave);
  f = new Factory(alice);
  refs = await f.init();
  for (const kind of CREATE_OF.keys())
    if (kind !== 'httpsEdgeRoute') world.set(kind, await f.make(kind));
  worldRoute = await f.route(world.get('httpsEdge'));
  world.set('httpsEdgeRoute', worldRoute.id);
});

afterAll(async () => {
  await sb?.close();
});

// ---------------------------------------------------------------------------------------------
// helpers

const ERROR_BY_CODE = new Map<string, ErrorSpec>(Object.values(ERRORS).map((e) => [e.code, e]));
const byName = (name: EndpointName): Endpoint => ENDPOINTS.find((e) => e.name === name) as Endpoint;
const unknownId = (kind: IdKind) => `${ID_PREFIXES[kind]}Unknown0000${kind.length}`;
const hasBody = (e: Endpoint) => e.body !== null;
const isModule = (e: Endpoint) => moduleOf(e.name) !== undefined;
const isCommand = (e: Endpoint) => /^tunnelSessions\.(restart|stop|update)$/.test(e.name);
/** Endpoints that need an online agent to succeed; the sandbox has none in this suite. */
const needsAgent = (e: Endpoint) =>
  e.name.startsWith('tunnelSessions.') && e.name !== 'tunnelSessions.list';

/** Existing resources for every path parameter of `e`. */
function worldParams(e: Endpoint): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [param, kind] of Object.entries(e.pathParams as Record<string, IdKind>)) {
    if (param === 'edge_id') params[param] = worldRoute.edge_id;
    else params[param] = kind === 'tunnelSession' ? unknownId(kind) : (world.get(kind) ?? '');
  }
  return params;
}

const parentPath = (e: Endpoint, params: Record<string, string>) =>
  fillPath(e.path.replace(/\/[a-z_]+$/, ''), params);

/** The path where the resource answered by `e` lives (its get endpoint's path). */
function resourceUri(e: Endpoint, params: Record<string, string>, id: string): string {
  const path = e.name.endsWith('.create') ? `${e.path}/{id}` : e.path;
  return `${base}${fillPath(path, { ...params, id })}`;
}

const ECHOED = [
  'description',
  'metadata',
  'hostports',
  'acl',
  'principals',
  'labels',
  'backends',
  'match',
  'match_type',
  'urls',
  'body',
  'status_code',
  'domain',
];

function expectEcho(sent: Body, got: ReplyBody, context: string): void {
  for (const key of ECHOED)
    if (key in sent) expect(got?.[key], `${context}: ${key} echoed`).toEqual(sent[key]);
}

/** The read form of a module must say what its write form said. */
function expectModuleEcho(module: string, sent: Body, got: ReplyBody, context: string): void {
  const { backend_id, ip_policy_ids, certificate_authority_ids, ...rest } = sent;
  if (backend_id !== undefined) expect(got?.backend?.id, `${context}: backend`).toBe(backend_id);
  if (ip_policy_ids !== undefined)
    expect(
      got?.ip_policies?.map((r: { id: string }) => r.id),
      `${context}: ip_policies`,
    ).toEqual(ip_policy_ids);
  if (certificate_authority_ids !== undefined)
    expect(
      got?.certificate_authorities?.map((r: { id: string }) => r.id),
      `${context}: certificate_authorities`,
    ).toEqual(certificate_authority_ids);
  expect(got, `${context}: ${module} echoed`).toMatchObject(rest);
}

const DESC_AT = `${'é'.repeat(127)}a`; // 255 bytes, 128 characters
const DESC_OVER = 'é'.repeat(128); // 256 bytes, 128 characters
const DESC_AT_4 = `${'😀'.repeat(63)}abc`; // 255 bytes
const DESC_OVER_4 = '😀'.repeat(64); // 256 bytes
const META_AT = `${'€'.repeat(1365)}a`; // 4096 bytes
const META_OVER = `${'€'.repeat(1365)}ab`; // 4097 bytes

// ---------------------------------------------------------------------------------------------

describe('catalog self-check', () => {
  it('has 132 endpoints and a valid example body for each that takes one', () => {
    expect(ENDPOINTS).toHaveLength(132);
    const fakeRefs: Refs = {
      ipPolicy: 'ipp_A1',
      certificateAuthority: 'ca_A1',
      httpResponseBackend: 'bkdhr_A1',
      tunnelGroupBackend: 'bkdtg_A1',
      failoverBackend: 'bkdfo_A1',
      sshCertificateAuthority: 'sshca_A1',
    };
    for (const e of ENDPOINTS.filter(hasBody)) {
      const v = validateBody(
        e.body as NonNullable<Endpoint['body']>,
        exampleBody(e.name, fakeRefs),
      );
      expect(v.ok ? 'ok' : v.error.msg, e.name).toBe('ok');
    }
  });
});

describe('success path of every endpoint', () => {
  for (const e of ENDPOINTS.filter((x) => !needsAgent(x))) {
    it(`${e.name}: ${e.method} ${e.path} → ${e.status}`, async () => {
      const module = moduleOf(e.name);
      const params = await (e.name === 'httpsEdgeRoutes.create'
        ? f.make('httpsEdge').then((edge_id) => ({ edge_id }))
        : f.paramsFor(e));
      const path = fillPath(e.path, params);
      const ctx = `${e.method} ${path}`;
      const kind = resourceKindOf(e);
      const check = (reply: ApiReply, uri?: string) =>
        expectRepresentation(reply, {
          status: e.status,
          schema: e.response,
          base,
          kind,
          uri,
          context: ctx,
        });

      if (module !== undefined) {
        const put = byName(e.name.replace(/\.(get|delete)$/, '.replace') as EndpointName);
        const body = exampleBody(put.name, refs);
        const putReply = await alice('PUT', path, body);
        if (e.method === 'PUT') check(putReply);
        else expectStatus(putReply, 200, `PUT ${path}`);
        expectModuleEcho(module, body, putReply.body, ctx);
        const parent = await alice('GET', parentPath(e, params));
        expectStatus(parent, 200, 'GET parent');
        expect(parent.body?.[module], `${ctx}: the parent shows the module`).toEqual(putReply.body);
        if (e.method === 'GET') {
          const got = await alice('GET', path);
          check(got);
          expect(got.body).toEqual(putReply.body);
        }
        if (e.method === 'DELETE') {
          check(await alice('DELETE', path));
          expectError(
            await alice('GET', path),
            ERRORS.moduleNotConfigured,
            `GET ${path} after delete`,
          );
          const after = await alice('GET', parentPath(e, params));
          expect(after.body?.[module], `${ctx}: the parent shows null`).toBeNull();
        }
        return;
      }

      if (e.name.endsWith('.create')) {
        const body = exampleBody(e.name, refs);
        const reply = await alice('POST', path, body);
        check(reply, resourceUri(e, params, String(reply.body?.id)));
        expectEcho(body, reply.body, ctx);
        const age = Date.now() - Date.parse(String(reply.body?.created_at));
        expect(Math.abs(age), `${ctx}: created_at is now (UTC)`).toBeLessThan(120_000);
        expect(reply.headers.get('content-type'), `${ctx}: JSON`).toMatch(/^application\/json/);
        const again = await alice('GET', String(reply.body?.uri));
        expectStatus(again, 200, `GET ${String(reply.body?.uri)}`);
        const { token: _t, ...created } = reply.body as Record<string, unknown>;
        expect(again.body, `${ctx}: GET of its uri answers the same resource`).toMatchObject(
          created,
        );
        return;
      }

      if (e.method === 'GET' && 'listKey' in e) {
        const kindOfItems = (
          ENDPOINTS.find((x) => x.method === 'GET' && x.path === `${e.path}/{id}`)?.pathParams as
            | Record<string, IdKind>
            | undefined
        )?.['id'];
        const made =
          kindOfItems && kindOfItems !== 'tunnelSession' ? await f.make(kindOfItems) : undefined;
        const reply = await alice('GET', path);
        check(reply);
        expect(reply.body?.uri, `${ctx}: list uri`).toMatch(
          new RegExp(`^${base}${e.path}(\\?.*)?$`),
        );
        const items = reply.body?.[e.listKey] as { id: string }[] | undefined;
        expect(Array.isArray(items), `${ctx}: ${e.listKey} array`).toBe(true);
        if (made)
          expect(
            items?.map((i) => i.id),
            `${ctx}: lists the new one`,
          ).toContain(made);
        if (made && kindOfItems)
          for (const item of items ?? [])
            expect(item.id.startsWith(ID_PREFIXES[kindOfItems])).toBe(true);
        return;
      }

      if (e.method === 'GET') {
        check(await alice('GET', path), `${base}${path}`);
        return;
      }
      if (e.method === 'PATCH') {
        const body = exampleBody(e.name, refs);
        const reply = await alice('PATCH', path, body);
        check(reply, `${base}${path}`);
        expectEcho(body, reply.body, ctx);
        const again = await alice('GET', path);
        expect(again.body, `${ctx}: the update is stored`).toMatchObject(
          Object.fromEntries(ECHOED.filter((k) => k in body).map((k) => [k, body[k]])),
        );
        return;
      }
      if (e.method === 'DELETE') {
        check(await alice('DELETE', path));
        expectError(await alice('GET', path), ERRORS.notFound, `GET ${path} after delete`);
        expectError(await alice('DELETE', path), ERRORS.notFound, `DELETE ${path} twice`);
        return;
      }
      throw new Error(`no success scenario for ${e.name}`);
    });
  }

  it('covers every endpoint but the agent-only ones (which need an online tunnel session)', () => {
    expect(ENDPOINTS.filter(needsAgent).map((e) => e.name)).toEqual([
      'tunnelSessions.get',
      'tunnelSessions.restart',
      'tunnelSessions.stop',
      'tunnelSessions.update',
    ]);
  });
});

describe('path ids: 222 malformed or wrong prefix, 301 well-formed but unknown', () => {
  const withParams = ENDPOINTS.filter((e) => Object.keys(e.pathParams).length > 0);
  const bodyFor = (e: Endpoint) => (hasBody(e) ? exampleBody(e.name, refs) : undefined);

  for (const e of withParams) {
    it(`${e.name}: 222`, async () => {
      for (const [param, kind] of Object.entries(e.pathParams as Record<string, IdKind>)) {
        const bad = [
          `${kind === 'ipPolicy' ? 'cr_' : 'ipp_'}Abc123`,
          `${ID_PREFIXES[kind]}bad-id`,
          `${ID_PREFIXES[kind]}${'a'.repeat(65)}`,
          'Abc123',
          ...(kind === 'httpsEdge' ? ['edghtsrt_Abc123'] : []),
          ...(kind === 'httpsEdgeRoute' ? ['edghts_Abc123'] : []),
        ];
        for (const id of bad) {
          const path = fillPath(e.path, { ...worldParams(e), [param]: id });
          expectError(
            await alice(e.method, path, bodyFor(e)),
            ERRORS.malformedPathId,
            `${e.method} ${path}`,
          );
        }
      }
    });
    it(`${e.name}: 301`, async () => {
      for (const [param, kind] of Object.entries(e.pathParams as Record<string, IdKind>)) {
        const path = fillPath(e.path, { ...worldParams(e), [param]: unknownId(kind) });
        expectError(
          await alice(e.method, path, bodyFor(e)),
          ERRORS.notFound,
          `${e.method} ${path}`,
        );
      }
    });
  }

  it('a route fetched under another edge is 301', async () => {
    const otherEdge = await f.make('httpsEdge');
    const path = `/edges/https/${otherEdge}/routes/${worldRoute.id}`;
    expectError(await alice('GET', path), ERRORS.notFound, `GET ${path}`);
    expectError(await alice('GET', `${path}/backend`), ERRORS.notFound, `GET ${path}/backend`);
    expectError(await alice('DELETE', path), ERRORS.notFound, `DELETE ${path}`);
    expectStatus(
      await alice('GET', `/edges/https/${worldRoute.edge_id}/routes/${worldRoute.id}`),
      200,
    );
  });
});

describe('request bodies: 214 unknown field, 300 missing required, 215 wrong type', () => {
  const bodied = ENDPOINTS.filter((e) => hasBody(e) && !isCommand(e));
  const wrongType = (v: unknown): unknown => {
    if (typeof v === 'string') return 12345;
    if (typeof v === 'number') return 'twelve';
    if (typeof v === 'boolean') return 'yes';
    if (Array.isArray(v)) return 'not-an-array';
    if (typeof v === 'object' && v !== null) return 'not-an-object';
    return [];
  };
  /** Single-field mutations of the example, top level and one level down. */
  function mutations(example: Body, mutate: (v: unknown) => unknown | typeof OMIT) {
    const out: { field: string; body: Body }[] = [];
    for (const [k, v] of Object.entries(example)) {
      const top = mutate(v);
      const body = { ...example };
      if (top === OMIT) delete body[k];
      else body[k] = top;
      out.push({ field: k, body });
      if (typeof v === 'object' && v !== null && !Array.isArray(v))
        for (const [k2, v2] of Object.entries(v)) {
          const inner: Body = { ...(v as Body) };
          const m = mutate(v2);
          if (m === OMIT) delete inner[k2];
          else inner[k2] = m;
          out.push({ field: `${k}.${k2}`, body: { ...example, [k]: inner } });
        }
    }
    return out;
  }
  const OMIT = Symbol('omit');

  for (const e of bodied) {
    it(`${e.name}: 214 unknown field, named`, async () => {
      const path = fillPath(e.path, worldParams(e));
      const body = { ...exampleBody(e.name, refs), zz_unknown_field: 1 };
      const reply = await alice(e.method, path, body);
      expectError(reply, ERRORS.unknownField, `${e.method} ${path}`);
      expect(`${reply.body?.msg} ${reply.body?.details?.field}`, 'names the field').toContain(
        'zz_unknown_field',
      );
      // An unknown field inside each nested module object (not inside maps, which take any key).
      const example = exampleBody(e.name, refs);
      for (const [k, v] of Object.entries(example)) {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
        const inner = { ...example, [k]: { ...(v as Body), zz_inner: true } };
        const oracle = validateBody(e.body as NonNullable<Endpoint['body']>, inner);
        if (oracle.ok || oracle.error.name !== 'unknownField') continue;
        expectError(
          await alice(e.method, path, inner),
          ERRORS.unknownField,
          `${e.method} ${path} with ${k}.zz_inner`,
        );
      }
    });

    it(`${e.name}: 300 for each required field left out, 215 for each field of the wrong type`, async () => {
      const path = fillPath(e.path, worldParams(e));
      const schema = e.body as NonNullable<Endpoint['body']>;
      const example = exampleBody(e.name, refs);
      const failures: string[] = [];
      const cases = [
        ...mutations(example, () => OMIT).map((c) => ({ ...c, what: 'missing' })),
        ...mutations(example, wrongType).map((c) => ({ ...c, what: 'wrong type' })),
      ];
      let sent = 0;
      for (const c of cases) {
        const oracle = validateBody(schema, c.body);
        if (oracle.ok) continue; // optional field: nothing to refuse
        if (c.what === 'missing' && oracle.error.name !== 'missingField') continue;
        sent++;
        const expected = ERRORS[oracle.error.name];
        const reply = await alice(e.method, path, c.body);
        const problems = errorShapeProblems(reply.status, reply.body);
        if (
          reply.status !== expected.status ||
          reply.body?.error_code !== expected.code ||
          problems.length > 0
        )
          failures.push(
            `${c.field} ${c.what}: expected ${expected.code}/${expected.status}, got ${reply.body?.error_code}/${reply.status} ${problems.join('; ')} ${reply.body?.msg ?? ''}`,
          );
        else if (
          expected.code === ERRORS.invalidValue.code &&
          !`${reply.body?.msg} ${reply.body?.details?.field}`.includes(
            c.field.split('.').pop() ?? '',
          )
        )
          failures.push(`${c.field} ${c.what}: 215 does not name the field: ${reply.body?.msg}`);
      }
      expect(sent, 'cases sent').toBeGreaterThan(0);
      expect(failures, `${e.method} ${path}`).toEqual([]);
    });
  }
});

describe('byte limits: 420 description over 255 bytes, 421 metadata over 4096 bytes', () => {
  const limited = ENDPOINTS.filter((e) => hasBody(e) && !isCommand(e) && !isModule(e));
  for (const e of limited) {
    const sample = exampleBody(e.name, {} as Refs);
    const fields = ['description', 'metadata'].filter((k) => k in sample);
    if (fields.length === 0) continue;
    it(`${e.name}: exactly at the limit is accepted, one byte over is refused (multibyte)`, async () => {
      const target = async () => {
        if (e.name === 'httpsEdgeRoutes.create') return { edge_id: await f.make('httpsEdge') };
        return e.method === 'PATCH' ? f.paramsFor(e) : {};
      };
      const send = async (patch: Body) => {
        const path = fillPath(e.path, await target());
        const body = { ...exampleBody(e.name, refs), ...patch };
        return { path, reply: await alice(e.method, path, body) };
      };
      if (fields.includes('description')) {
        for (const at of [DESC_AT, DESC_AT_4]) {
          const { path, reply } = await send({ description: at });
          expectStatus(reply, e.status, `${e.method} ${path} description of 255 bytes`);
          expect(reply.body?.description, 'stored whole').toBe(at);
        }
        for (const over of [DESC_OVER, DESC_OVER_4]) {
          const { path, reply } = await send({ description: over });
          expectError(
            reply,
            ERRORS.descriptionTooLong,
            `${e.method} ${path} description of 256 bytes`,
          );
        }
      }
      if (fields.includes('metadata')) {
        const at = await send({ metadata: META_AT });
        expectStatus(at.reply, e.status, `${e.method} ${at.path} metadata of 4096 bytes`);
        expect(at.reply.body?.metadata, 'stored whole').toBe(META_AT);
        const over = await send({ metadata: META_OVER });
        expectError(
          over.reply,
          ERRORS.metadataTooLong,
          `${e.method} ${over.path} metadata of 4097 bytes`,
        );
      }
    });
  }
});

describe('references in bodies: 223 to nothing or to the wrong kind', () => {
  type Place = readonly [what: string, method: string, path: Path, body: (ref: Ref) => Body];
  type Path = () => Promise<string>;
  type Ref = string | readonly string[];

  const cases = (): { what: string; method: string; path: Path; body: Body }[] => {
    const tls = () => f.make('tlsEdge').then((id) => `/edges/tls/${id}`);
    const https = () => f.make('httpsEdge').then((id) => `/edges/https/${id}`);
    const route = () => f.route().then((r) => `/edges/https/${r.edge_id}/routes/${r.id}`);
    const failover = () => f.make('failoverBackend').then((id) => `/backends/failover/${id}`);
    const k = (p: string) => async () => p;
    const under = (parent: Path, module: string) => () => parent().then((p) => `${p}/${module}`);
    const backend = (ref: Ref): Body => ({ backend_id: ref });
    const ipPolicies = (ref: Ref): Body => ({ ip_policy_ids: ref });
    const cas = (ref: Ref): Body => ({ certificate_authority_ids: ref });
    const newRoute = () => ({ match_type: 'exact_path', match: `/x-${unique()}` });
    const CREATE_PATH = {
      sshUserCertificates: '/ssh_user_certificates',
      sshHostCertificates: '/ssh_host_certificates',
    };
    // Bad references, each group with the places it is written: create, PATCH and module PUT.
    const refsTo: readonly { bad: readonly Ref[]; places: readonly Place[] }[] = [
      {
        bad: [
          'bkdhr_Unknown1',
          'bkdfo_Unknown1',
          'bkdtg_Unknown1',
          refs.ipPolicy,
          refs.certificateAuthority,
        ],
        places: [
          ['tls create backend', 'POST', k('/edges/tls'), (r) => ({ backend: backend(r) })],
          ['tls PATCH backend', 'PATCH', tls, (r) => ({ backend: backend(r) })],
          ['tls PUT backend', 'PUT', under(tls, 'backend'), backend],
          ['route PUT backend', 'PUT', under(route, 'backend'), backend],
          ['route PATCH backend', 'PATCH', route, (r) => ({ backend: backend(r) })],
          ['failover child', 'POST', k('/backends/failover'), (r) => ({ backends: [r] })],
          [
            'failover PATCH child',
            'PATCH',
            failover,
            (r) => ({ backends: [refs.httpResponseBackend, r] }),
          ],
        ],
      },
      {
        bad: [['ipp_Unknown1'], [refs.httpResponseBackend], [refs.ipPolicy, 'ipp_Unknown2']],
        places: [
          [
            'tls create ip_policy_ids',
            'POST',
            k('/edges/tls'),
            (r) => ({ ip_restriction: ipPolicies(r) }),
          ],
          ['tls PUT ip_restriction', 'PUT', under(tls, 'ip_restriction'), ipPolicies],
          [
            'route create ip_restriction',
            'POST',
            under(https, 'routes'),
            (r) => ({ ...newRoute(), ip_restriction: ipPolicies(r) }),
          ],
          ['route PUT ip_restriction', 'PUT', under(route, 'ip_restriction'), ipPolicies],
        ],
      },
      {
        bad: [['ca_Unknown1'], [refs.ipPolicy]],
        places: [
          ['tls create mutual_tls', 'POST', k('/edges/tls'), (r) => ({ mutual_tls: cas(r) })],
          ['tls PUT mutual_tls', 'PUT', under(tls, 'mutual_tls'), cas],
          ['https create mutual_tls', 'POST', k('/edges/https'), (r) => ({ mutual_tls: cas(r) })],
          ['https PATCH mutual_tls', 'PATCH', https, (r) => ({ mutual_tls: cas(r) })],
          ['https PUT mutual_tls', 'PUT', under(https, 'mutual_tls'), cas],
        ],
      },
      {
        bad: ['sshca_Unknown1', refs.ipPolicy],
        places: (['sshUserCertificates', 'sshHostCertificates'] as const).map((kind): Place => [
          `${kind} CA`,
          'POST',
          k(CREATE_PATH[kind]),
          (r) => ({ ...exampleBody(`${kind}.create`, refs), ssh_certificate_authority_id: r }),
        ]),
      },
    ];
    return refsTo.flatMap(({ bad, places }) =>
      bad.flatMap((ref) =>
        places.map(([what, method, path, body]) => ({
          what: `${what} ${String(ref)}`,
          method,
          path,
          body: body(ref),
        })),
      ),
    );
  };

  it('every reference to nothing or to the wrong kind is 223 (create, PATCH and module PUT)', async () => {
    const failures: string[] = [];
    for (const c of cases()) {
      const path = await c.path();
      const reply = await alice(c.method, path, c.body);
      if (reply.status !== 400 || reply.body?.error_code !== ERRORS.invalidReference.code)
        failures.push(
          `${c.what}: ${c.method} ${path} → ${reply.status} ${reply.body?.error_code} ${reply.body?.msg ?? ''}`,
        );
      else expect(errorShapeProblems(reply.status, reply.body)).toEqual([]);
    }
    expect(failures).toEqual([]);
  });

  it("another account's resource is a reference to nothing (223)", async () => {
    const carolsPolicy = (await carol('POST', '/ip_policies', {})).body?.id as string;
    const carolsBackend = (await carol('POST', '/backends/http_response', {})).body?.id as string;
    expectError(
      await alice('POST', '/edges/tls', { ip_restriction: { ip_policy_ids: [carolsPolicy] } }),
      ERRORS.invalidReference,
      'ip policy of carol',
    );
    expectError(
      await alice('POST', '/edges/tls', { backend: { backend_id: carolsBackend } }),
      ERRORS.invalidReference,
      'backend of carol',
    );
    expectError(
      await alice('POST', '/backends/failover', { backends: [carolsBackend] }),
      ERRORS.invalidReference,
      'failover child of carol',
    );
  });
});

describe('deleting referenced resources: 306 for backends and CAs, IP policies may go', () => {
  it('a backend used by a TLS edge, a route or a failover backend cannot be deleted (409 306)', async () => {
    for (const kind of ['httpResponseBackend', 'tunnelGroupBackend', 'failoverBackend'] as const) {
      const id = await f.make(kind);
      const path = `${CREATE_OF.get(kind)?.path}/${id}`;
      const edge = await f.create('/edges/tls', { backend: { backend_id: id } });
      expectError(
        await alice('DELETE', path),
        ERRORS.stillReferenced,
        `DELETE ${path} used by ${edge.id}`,
      );
      expectStatus(await alice('GET', path), 200, 'still there');
      expectStatus(await alice('DELETE', `/edges/tls/${edge.id}/backend`), 204);
      expectStatus(await alice('DELETE', path), 204, `DELETE ${path} once unused`);
    }
    const id = await f.make('httpResponseBackend');
    const route = await f.route(undefined, { backend: { backend_id: id } });
    expectError(
      await alice('DELETE', `/backends/http_response/${id}`),
      ERRORS.stillReferenced,
      'used by a route',
    );
    expectStatus(await alice('DELETE', `/edges/https/${route.edge_id}/routes/${route.id}`), 204);
    expectStatus(
      await alice('DELETE', `/backends/http_response/${id}`),
      204,
      'after the route is gone',
    );
    const child = await f.make('tunnelGroupBackend');
    const fo = await f.create('/backends/failover', { backends: [child] });
    expectError(
      await alice('DELETE', `/backends/tunnel_group/${child}`),
      ERRORS.stillReferenced,
      'child of a failover',
    );
    expectStatus(await alice('DELETE', `/backends/failover/${fo.id}`), 204);
    expectStatus(await alice('DELETE', `/backends/tunnel_group/${child}`), 204);
  });

  it('a certificate authority used by mutual TLS cannot be deleted (409 306)', async () => {
    for (const edges of ['/edges/tls', '/edges/https']) {
      const ca = await f.make('certificateAuthority');
      const edge = await f.create(edges, { mutual_tls: { certificate_authority_ids: [ca] } });
      expectError(
        await alice('DELETE', `/certificate_authorities/${ca}`),
        ERRORS.stillReferenced,
        `used by ${edge.id}`,
      );
      expectStatus(await alice('DELETE', `${edges}/${edge.id}/mutual_tls`), 204);
      expectStatus(await alice('DELETE', `/certificate_authorities/${ca}`), 204);
    }
  });

  it('deleting an IP policy in use succeeds and leaves the edge working (GET still 200)', async () => {
    const policy = await f.make('ipPolicy');
    const edge = await f.create('/edges/tls', {
      ip_restriction: { ip_policy_ids: [policy, refs.ipPolicy] },
    });
    const route = await f.route(undefined, { ip_restriction: { ip_policy_ids: [policy] } });
    expectStatus(await alice('DELETE', `/ip_policies/${policy}`), 204);
    expectStatus(await alice('GET', `/edges/tls/${edge.id}`), 200, 'edge');
    expectStatus(await alice('GET', `/edges/tls/${edge.id}/ip_restriction`), 200, 'edge module');
    expectStatus(
      await alice('GET', `/edges/https/${route.edge_id}/routes/${route.id}`),
      200,
      'route',
    );
    expectStatus(await alice('GET', `/edges/https/${route.edge_id}`), 200, 'https edge');
    expectStatus(
      await alice('PATCH', `/edges/tls/${edge.id}`, { description: 'still editable' }),
      200,
      'PATCH edge',
    );
    const list = await alice('GET', '/edges/tls');
    expectStatus(list, 200, 'list');
  });
});

describe('HTTPS edge routes: 308 duplicate match', () => {
  it('a match is unique within its edge, on create and on PATCH, whatever the match_type', async () => {
    const edge = await f.make('httpsEdge');
    const routes = `/edges/https/${edge}/routes`;
    const a = await f.create(routes, { match_type: 'path_prefix', match: '/dup' });
    expectError(
      await alice('POST', routes, { match_type: 'path_prefix', match: '/dup' }),
      ERRORS.routeMatchTaken,
      'same match',
    );
    expectError(
      await alice('POST', routes, { match_type: 'exact_path', match: '/dup' }),
      ERRORS.routeMatchTaken,
      'same match, other type',
    );
    const b = await f.create(routes, { match_type: 'path_prefix', match: '/other' });
    expectError(
      await alice('PATCH', `${routes}/${b.id}`, { match: '/dup' }),
      ERRORS.routeMatchTaken,
      'PATCH onto a taken match',
    );
    expectStatus(
      await alice('PATCH', `${routes}/${a.id}`, { match: '/dup', description: 'same' }),
      200,
      'PATCH to its own match',
    );
    const other = await f.make('httpsEdge');
    expectStatus(
      await alice('POST', `/edges/https/${other}/routes`, {
        match_type: 'path_prefix',
        match: '/dup',
      }),
      201,
      'same match on another edge',
    );
    const edgeBody = (await alice('GET', `/edges/https/${edge}`)).body;
    expect(
      edgeBody?.routes?.map((r: { id: string }) => r.id),
      'routes oldest first',
    ).toEqual([a.id, b.id]);
  });
});

describe('TLS termination: 310 module needing edge termination, 311 min_version upstream', () => {
  const mtls = () => ({ certificate_authority_ids: [refs.certificateAuthority] });
  it('on create', async () => {
    expectError(
      await alice('POST', '/edges/tls', {
        mutual_tls: mtls(),
        tls_termination: { terminate_at: 'upstream' },
      }),
      ERRORS.moduleNeedsEdgeTermination,
      'mutual_tls + upstream',
    );
    expectError(
      await alice('POST', '/edges/tls', {
        tls_termination: { terminate_at: 'upstream', min_version: '1.2' },
      }),
      ERRORS.minVersionWithUpstream,
      'min_version upstream',
    );
    expectStatus(
      await alice('POST', '/edges/tls', {
        tls_termination: { terminate_at: 'upstream', min_version: null },
      }),
      201,
      'upstream with null min_version',
    );
    expectStatus(
      await alice('POST', '/edges/tls', {
        mutual_tls: { ...mtls(), enabled: false },
        tls_termination: { terminate_at: 'upstream' },
      }),
      201,
      'disabled mutual_tls + upstream',
    );
    expectStatus(
      await alice('POST', '/edges/tls', {
        backend: { backend_id: refs.httpResponseBackend },
        ip_restriction: { ip_policy_ids: [refs.ipPolicy] },
        tls_termination: { terminate_at: 'upstream' },
      }),
      201,
      'backend and ip_restriction + upstream',
    );
  });
  it('on PATCH, against the merged edge', async () => {
    const withMtls = await f.create('/edges/tls', { mutual_tls: mtls() });
    expectError(
      await alice('PATCH', `/edges/tls/${withMtls.id}`, {
        tls_termination: { terminate_at: 'upstream' },
      }),
      ERRORS.moduleNeedsEdgeTermination,
      'PATCH upstream onto mutual_tls',
    );
    const upstream = await f.create('/edges/tls', {
      tls_termination: { terminate_at: 'upstream' },
    });
    expectError(
      await alice('PATCH', `/edges/tls/${upstream.id}`, { mutual_tls: mtls() }),
      ERRORS.moduleNeedsEdgeTermination,
      'PATCH mutual_tls onto upstream',
    );
    expectError(
      await alice('PATCH', `/edges/tls/${upstream.id}`, {
        tls_termination: { terminate_at: 'upstream', min_version: '1.3' },
      }),
      ERRORS.minVersionWithUpstream,
      'PATCH min_version upstream',
    );
    const unchanged = await alice('GET', `/edges/tls/${upstream.id}`);
    expect(unchanged.body?.mutual_tls, 'nothing stored by a refused PATCH').toBeNull();
  });
  it('on module PUT', async () => {
    const withMtls = await f.create('/edges/tls', { mutual_tls: mtls() });
    expectError(
      await alice('PUT', `/edges/tls/${withMtls.id}/tls_termination`, { terminate_at: 'upstream' }),
      ERRORS.moduleNeedsEdgeTermination,
      'PUT upstream with mutual_tls',
    );
    const upstream = await f.create('/edges/tls', {
      tls_termination: { terminate_at: 'upstream' },
    });
    expectError(
      await alice('PUT', `/edges/tls/${upstream.id}/mutual_tls`, mtls()),
      ERRORS.moduleNeedsEdgeTermination,
      'PUT mutual_tls with upstream',
    );
    expectError(
      await alice('PUT', `/edges/tls/${upstream.id}/tls_termination`, {
        terminate_at: 'upstream',
        min_version: '1.2',
      }),
      ERRORS.minVersionWithUpstream,
      'PUT min_version upstream',
    );
    const term = await alice('GET', `/edges/tls/${upstream.id}/tls_termination`);
    expect(term.body, 'refused PUT stores nothing').toMatchObject({
      terminate_at: 'upstream',
      min_version: null,
    });
  });
});

describe('route auth modules: 312 two at once, 313/314 OAuth, 315 webhook', () => {
  const routePath = (r: { edge_id: string; id: string }) =>
    `/edges/https/${r.edge_id}/routes/${r.id}`;
  it('312: a second auth module is refused on create, PATCH and PUT', async () => {
    const edge = await f.make('httpsEdge');
    expectError(
      await alice('POST', `/edges/https/${edge}/routes`, {
        match_type: 'path_prefix',
        match: '/two',
        oauth: moduleExample('oauth', refs),
        oidc: moduleExample('oidc', refs),
      }),
      ERRORS.conflictingAuthModules,
      'create oauth + oidc',
    );
    const r = await f.route(edge, { oauth: moduleExample('oauth', refs) });
    for (const m of ['oidc', 'saml']) {
      expectError(
        await alice('PUT', `${routePath(r)}/${m}`, moduleExample(m, refs)),
        ERRORS.conflictingAuthModules,
        `PUT ${m} over oauth`,
      );
      expectError(
        await alice('PATCH', routePath(r), { [m]: moduleExample(m, refs) }),
        ERRORS.conflictingAuthModules,
        `PATCH ${m} over oauth`,
      );
      expectError(
        await alice('GET', `${routePath(r)}/${m}`),
        ERRORS.moduleNotConfigured,
        `${m} not stored`,
      );
    }
    expectStatus(
      await alice('PUT', `${routePath(r)}/oauth`, moduleExample('oauth', refs)),
      200,
      'replacing the same module is fine',
    );
    expectStatus(await alice('DELETE', `${routePath(r)}/oauth`), 204);
    expectStatus(
      await alice('PUT', `${routePath(r)}/saml`, moduleExample('saml', refs)),
      200,
      'saml once oauth is gone',
    );
  });
  it('313: OAuth names exactly one provider', async () => {
    const r = await f.route();
    const oauth = moduleExample('oauth', refs);
    const gh = (oauth['provider'] as Body)['github'];
    expectError(
      await alice('PUT', `${routePath(r)}/oauth`, { ...oauth, provider: {} }),
      ERRORS.oauthProviderCount,
      'no provider',
    );
    expectError(
      await alice('PUT', `${routePath(r)}/oauth`, {
        ...oauth,
        provider: { github: null, google: null },
      }),
      ERRORS.oauthProviderCount,
      'only nulls',
    );
    expectError(
      await alice('PUT', `${routePath(r)}/oauth`, {
        ...oauth,
        provider: { github: gh, google: {} },
      }),
      ERRORS.oauthProviderCount,
      'two providers',
    );
    const ok = await alice('PUT', `${routePath(r)}/oauth`, { provider: { google: {} } });
    expectStatus(ok, 200, 'service-managed google app');
    expect(ok.body?.provider, 'eight members, unset ones null').toMatchObject({
      github: null,
      facebook: null,
      microsoft: null,
      linkedin: null,
      gitlab: null,
      twitch: null,
      amazon: null,
    });
    expect(ok.body?.provider?.google).toMatchObject({ client_id: null, client_secret: null });
  });
  it('314: client_id, client_secret and scopes come together', async () => {
    const r = await f.route();
    const put = (google: Body) => alice('PUT', `${routePath(r)}/oauth`, { provider: { google } });
    expectError(await put({ client_id: 'id' }), ERRORS.oauthClientCredentials, 'client_id alone');
    expectError(
      await put({ client_secret: 'secret' }),
      ERRORS.oauthClientCredentials,
      'client_secret alone',
    );
    expectError(
      await put({ scopes: ['email'] }),
      ERRORS.oauthClientCredentials,
      'scopes without the app',
    );
    expectError(
      await put({ client_id: 'id', scopes: ['email'] }),
      ERRORS.oauthClientCredentials,
      'scopes with half an app',
    );
    expectStatus(
      await put({ client_id: 'id', client_secret: 's', scopes: ['email'] }),
      200,
      'own app with scopes',
    );
  });
  it('315: webhook providers are a fixed list; sns takes no secret, the others need one', async () => {
    const r = await f.route();
    const put = (body: Body) => alice('PUT', `${routePath(r)}/webhook_verification`, body);
    expectError(
      await put({ provider: 'not-a-provider', secret: 'x' }),
      ERRORS.webhookProvider,
      'unknown provider',
    );
    expectError(await put({ provider: 'github' }), ERRORS.webhookProvider, 'github without secret');
    expectError(
      await put({ provider: 'stripe', secret: '' }),
      ERRORS.webhookProvider,
      'stripe, empty secret',
    );
    expectError(
      await put({ provider: 'sns', secret: 'x' }),
      ERRORS.webhookProvider,
      'sns with a secret',
    );
    const sns = await put({ provider: 'sns' });
    expectStatus(sns, 200, 'sns without secret');
    const mixed = await put({ provider: 'GitHub', secret: 'abc' });
    expectStatus(mixed, 200, 'case-insensitive');
    expect(mixed.body).toMatchObject({ provider: 'github', secret: 'abc', enabled: true });
    expectError(
      await alice('PATCH', routePath(r), { webhook_verification: { provider: 'slack' } }),
      ERRORS.webhookProvider,
      'PATCH slack without secret',
    );
  });
  it('313/314/315 apply on route create and PATCH too', async () => {
    const edge = await f.make('httpsEdge');
    const base0 = { match_type: 'path_prefix', match: `/w-${unique()}` };
    expectError(
      await alice('POST', `/edges/https/${edge}/routes`, { ...base0, oauth: { provider: {} } }),
      ERRORS.oauthProviderCount,
      'create',
    );
    expectError(
      await alice('POST', `/edges/https/${edge}/routes`, {
        ...base0,
        oauth: { provider: { gitlab: { client_id: 'x' } } },
      }),
      ERRORS.oauthClientCredentials,
      'create',
    );
    expectError(
      await alice('POST', `/edges/https/${edge}/routes`, {
        ...base0,
        webhook_verification: { provider: 'nope', secret: 'x' },
      }),
      ERRORS.webhookProvider,
      'create',
    );
    const r = await f.route(edge);
    expectError(
      await alice('PATCH', routePath(r), { oauth: { provider: { github: {}, gitlab: {} } } }),
      ERRORS.oauthProviderCount,
      'PATCH',
    );
  });
});

describe('modules: 307 GET of a module not set; PATCH replaces only the named modules', () => {
  const moduleGets = ENDPOINTS.filter((e) => isModule(e) && e.method === 'GET');
  for (const e of moduleGets) {
    it(`${e.name}: 307 on a fresh parent`, async () => {
      const path = fillPath(e.path, await f.paramsFor(e));
      expectError(await alice('GET', path), ERRORS.moduleNotConfigured, `GET ${path}`);
    });
  }

  it('a fresh edge and route show every module as null', async () => {
    const tls = (await alice('GET', `/edges/tls/${await f.make('tlsEdge')}`)).body;
    expect(tls).toMatchObject({
      backend: null,
      ip_restriction: null,
      mutual_tls: null,
      tls_termination: null,
      hostports: expect.any(Array),
    });
    const https = (await alice('GET', `/edges/https/${await f.make('httpsEdge')}`)).body;
    expect(https).toMatchObject({ mutual_tls: null, tls_termination: null, routes: [] });
    const r = await f.route();
    const route = (await alice('GET', `/edges/https/${r.edge_id}/routes/${r.id}`)).body;
    for (const m of SPEC_ROUTE_MODULES) expect(route?.[m], m).toBeNull();
    expect(route?.edge_id).toBe(r.edge_id);
  });

  it('TLS edge PATCH: a named module is replaced whole, the others are unchanged', async () => {
    const other = await f.make('ipPolicy');
    const edge = await f.create('/edges/tls', exampleBody('tlsEdges.create', refs));
    const patched = await alice('PATCH', `/edges/tls/${edge.id}`, {
      ip_restriction: { ip_policy_ids: [other], enabled: false },
    });
    expectStatus(patched, 200);
    expect(patched.body.ip_restriction).toMatchObject({
      enabled: false,
      ip_policies: [{ id: other }],
    });
    expect(patched.body.ip_restriction.ip_policies).toHaveLength(1);
    for (const m of ['backend', 'mutual_tls', 'tls_termination'])
      expect(patched.body[m], m).toEqual(edge[m]);
    expect(patched.body.hostports).toEqual(edge.hostports);
    expect(patched.body.description).toBe(edge.description);
    const desc = await alice('PATCH', `/edges/tls/${edge.id}`, { description: 'only this' });
    for (const m of ['backend', 'ip_restriction', 'mutual_tls', 'tls_termination'])
      expect(desc.body[m], m).toEqual(patched.body[m]);
    expect(desc.body.metadata, 'metadata unchanged').toBe(edge.metadata);
  });

  it('HTTPS edge and route PATCH: a named module is replaced whole, the others are unchanged', async () => {
    const edge = await f.create('/edges/https', exampleBody('httpsEdges.create', refs));
    const p = await alice('PATCH', `/edges/https/${edge.id}`, {
      tls_termination: { min_version: '1.2' },
    });
    expectStatus(p, 200);
    expect(p.body.tls_termination).toMatchObject({ min_version: '1.2', enabled: true });
    expect(p.body.mutual_tls).toEqual(edge.mutual_tls);
    const route = await f.create(
      `/edges/https/${edge.id}/routes`,
      exampleBody('httpsEdgeRoutes.create', refs),
    );
    const rp = await alice('PATCH', `/edges/https/${edge.id}/routes/${route.id}`, {
      compression: { enabled: false },
      request_headers: { add: { 'x-new': '1' } },
    });
    expectStatus(rp, 200);
    expect(rp.body.compression).toEqual({ enabled: false });
    expect(rp.body.request_headers, 'replaced whole').toMatchObject({
      add: { 'x-new': '1' },
      remove: [],
    });
    for (const m of [
      'backend',
      'ip_restriction',
      'circuit_breaker',
      'response_headers',
      'webhook_verification',
      'oidc',
      'websocket_tcp_converter',
    ])
      expect(rp.body[m], m).toEqual(route[m]);
    expect(rp.body.match).toBe(route.match);
    const got = await alice('GET', `/edges/https/${edge.id}`);
    expect(got.body.routes?.[0], 'the edge shows the patched route').toEqual(rp.body);
  });

  it('a module cannot be removed with PATCH (null is refused or ignored, never a removal)', async () => {
    const edge = await f.create('/edges/tls', {
      backend: { backend_id: refs.httpResponseBackend },
    });
    const r = await alice('PATCH', `/edges/tls/${edge.id}`, { backend: null });
    const after = await alice('GET', `/edges/tls/${edge.id}`);
    expect({ status: r.status, backend: after.body?.backend?.backend?.id }).toMatchObject({
      backend: refs.httpResponseBackend,
    });
  });
});

describe('credentials: one-time token and owner_id', () => {
  it('the token is in the create response only, null in get, list and patch', async () => {
    const created = await alice('POST', '/credentials', { description: 'token test' });
    expectStatus(created, 201);
    expect(
      typeof created.body.token === 'string' && created.body.token.length > 0,
      'token on create',
    ).toBe(true);
    const path = `/credentials/${created.body.id}`;
    expect((await alice('GET', path)).body?.token, 'get').toBeNull();
    expect((await alice('PATCH', path, { description: 'x' })).body?.token, 'patch').toBeNull();
    const list = (await alice('GET', '/credentials')).body?.credentials as {
      id: string;
      token: unknown;
    }[];
    expect(list.find((c) => c.id === created.body.id)?.token, 'list').toBeNull();
    for (const c of list) expect(c.token, `list item ${c.id}`).toBeNull();
    expect(JSON.stringify((await alice('GET', '/credentials')).body)).not.toContain(
      created.body.token,
    );
  });

  for (const [path, extra] of [
    ['/credentials', (): Body => ({})],
    ['/ssh_credentials', (): Body => ({ public_key: freshSshPublicKey() })],
  ] as const) {
    it(`${path}: owner defaults to the caller; admins may name a user or bot of the account`, async () => {
      const own = await alice('POST', path, extra());
      expectStatus(own, 201);
      expect(own.body.owner_id).toBe('usr_alice');
      const bobs = await bob('POST', path, extra());
      expect(bobs.body?.owner_id).toBe('usr_bob');
      for (const owner of ['bot_ci', 'usr_bob', 'usr_alice']) {
        const r = await alice('POST', path, { ...extra(), owner_id: owner });
        expectStatus(r, 201, `alice assigns ${owner}`);
        expect(r.body.owner_id).toBe(owner);
        expect((await alice('GET', `${path}/${r.body.id}`)).body?.owner_id).toBe(owner);
      }
      expectStatus(
        await bob('POST', path, { ...extra(), owner_id: 'usr_bob' }),
        201,
        'bob names himself',
      );
      for (const [caller, owner, error, what] of [
        [bob, 'usr_alice', ERRORS.ownerNotAllowed, 'bob assigns alice'],
        [bob, 'bot_ci', ERRORS.ownerNotAllowed, 'bob assigns the bot'],
        [alice, 'usr_nobody', ERRORS.invalidReference, 'unknown user'],
        [alice, 'bot_nobody', ERRORS.invalidReference, 'unknown bot'],
        [alice, 'usr_carol', ERRORS.invalidReference, 'user of another account'],
        [alice, refs.ipPolicy, ERRORS.invalidReference, 'not a user'],
      ] as const)
        expectError(await caller('POST', path, { ...extra(), owner_id: owner }), error, what);
      expectError(
        await alice('PATCH', `${path}/${own.body.id}`, { owner_id: 'usr_bob' }),
        ERRORS.unknownField,
        'owner_id on PATCH',
      );
    });
  }

  it('409/223 aside, an ACL rule that is not one is 309', async () => {
    expectError(
      await alice('POST', '/credentials', { acl: ['allow:everything'] }),
      ERRORS.invalidAclRule,
      'bad rule',
    );
    expectError(
      await alice('POST', '/credentials', { acl: ['bind:*'] }),
      ERRORS.invalidAclRule,
      'bind:*',
    );
    expectStatus(
      await alice('POST', '/credentials', {
        acl: ['*', 'bind:*.example.com', 'bind:*=prod', 'bind:10.0.0.1:8080'],
      }),
      201,
      'valid rules',
    );
  });
});

describe('SSH certificate authorities and certificates', () => {
  it('certificates are signed by the CA, with the defaults of the spec', async () => {
    const user = await alice('POST', '/ssh_user_certificates', {
      ssh_certificate_authority_id: refs.sshCertificateAuthority,
      public_key: PUBLIC_KEYS.ed25519,
    });
    expectStatus(user, 201);
    expect(user.body.certificate).toMatch(/^ssh-ed25519-cert-v01@openssh\.com \S+/);
    expect(user.body).toMatchObject({
      key_type: 'ed25519',
      principals: [],
      critical_options: {},
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
    });
    const hours =
      (Date.parse(user.body.valid_until) - Date.parse(user.body.valid_after)) / 3_600_000;
    expect(Math.round(hours), 'user certificate valid 24 h by default').toBe(24);
    const host = await alice('POST', '/ssh_host_certificates', {
      ssh_certificate_authority_id: refs.sshCertificateAuthority,
      public_key: PUBLIC_KEYS.rsa,
    });
    expectStatus(host, 201);
    expect(host.body.certificate).toMatch(/^ssh-rsa-cert-v01@openssh\.com \S+/);
    const days =
      (Date.parse(host.body.valid_until) - Date.parse(host.body.valid_after)) / 86_400_000;
    expect(Math.round(days), 'host certificate valid a year by default').toBeGreaterThanOrEqual(
      365,
    );
    const ecdsa = await alice('POST', '/ssh_host_certificates', {
      ssh_certificate_authority_id: refs.sshCertificateAuthority,
      public_key: PUBLIC_KEYS.ecdsa256,
    });
    expect(ecdsa.body?.certificate).toMatch(/^ecdsa-sha2-nistp256-cert-v01@openssh\.com \S+/);
  });
  it('CA key types: ed25519 by default, ecdsa with a curve; the wrong option for a type is 215', async () => {
    const d = await alice('POST', '/ssh_certificate_authorities', {});
    expectStatus(d, 201);
    expect(d.body).toMatchObject({ key_type: 'ed25519' });
    expect(d.body.public_key).toEqual(expect.any(String));
    const ec = await alice('POST', '/ssh_certificate_authorities', {
      private_key_type: 'ecdsa',
      elliptic_curve: 'p256',
    });
    expectStatus(ec, 201);
    expect(ec.body).toMatchObject({ key_type: 'ecdsa' });
    expectError(
      await alice('POST', '/ssh_certificate_authorities', {
        private_key_type: 'ed25519',
        key_size: 2048,
      }),
      ERRORS.invalidValue,
      'key_size with ed25519',
    );
    expectError(
      await alice('POST', '/ssh_certificate_authorities', {
        private_key_type: 'rsa',
        key_size: 1024,
      }),
      ERRORS.invalidValue,
      'key_size 1024',
    );
    expectError(
      await alice('POST', '/ssh_certificate_authorities', { private_key_type: 'dsa' }),
      ERRORS.invalidValue,
      'dsa',
    );
    expect(JSON.stringify(ec.body)).not.toMatch(/PRIVATE KEY/);
  });
  it('317 bad public key, 318 validity window, 319 unknown critical option', async () => {
    const body = exampleBody('sshUserCertificates.create', refs);
    expectError(
      await alice('POST', '/ssh_user_certificates', {
        ...body,
        public_key: 'ssh-ed25519 AAAAnotakey',
      }),
      ERRORS.invalidPublicKey,
      '317',
    );
    expectError(
      await alice('POST', '/ssh_credentials', { public_key: 'not a key' }),
      ERRORS.invalidPublicKey,
      '317 credential',
    );
    expectError(
      await alice('POST', '/ssh_user_certificates', {
        ...body,
        valid_after: '2030-01-02T00:00:00Z',
        valid_until: '2030-01-01T00:00:00Z',
      }),
      ERRORS.invalidValidity,
      '318',
    );
    expectError(
      await alice('POST', '/ssh_user_certificates', {
        ...body,
        critical_options: { 'no-such-option': '' },
      }),
      ERRORS.unknownCriticalOption,
      '319',
    );
  });
});

describe('abuse reports', () => {
  it('305 for an account without abuse reports', async () => {
    expectError(
      await carol('POST', '/abuse_reports', { urls: ['https://bad.example.com/'] }),
      ERRORS.abuseReportsNotEnabled,
      'carol',
    );
  });
  it('320 for a URL that is not http(s) with a host', async () => {
    for (const url of [
      'ftp://bad.example.com/x',
      'not a url',
      'https://',
      'javascript:alert(1)',
      '/relative/path',
    ])
      expectError(
        await alice('POST', '/abuse_reports', { urls: ['https://ok.example.com/', url] }),
        ERRORS.abuseReportUrl,
        url,
      );
  });
  it('one hostname entry per distinct hostname, and a status of the spec', async () => {
    const r = await alice('POST', '/abuse_reports', {
      urls: [
        'https://a.example.com/x',
        'https://a.example.com/y?z=1',
        'http://b.example.com/',
        'https://A.EXAMPLE.COM/upper',
      ],
    });
    expectStatus(r, 201);
    const names = (r.body.hostnames as { hostname: string }[])
      .map((h) => h.hostname.toLowerCase())
      .sort();
    expect(names).toEqual(['a.example.com', 'b.example.com']);
    expect(['PENDING', 'PROCESSED', 'PARTIALLY_PROCESSED']).toContain(r.body.status);
    const got = await alice('GET', `/abuse_reports/${r.body.id}`);
    expectStatus(got, 200);
    expect(got.body).toEqual(r.body);
    expectError(
      await carol('GET', `/abuse_reports/${r.body.id}`),
      ERRORS.notFound,
      'another account',
    );
  });
  it('no urls is refused', async () => {
    const r = await alice('POST', '/abuse_reports', { urls: [] });
    expect(r.status).toBe(400);
    expect(errorShapeProblems(r.status, r.body)).toEqual([]);
    expectError(await alice('POST', '/abuse_reports', {}), ERRORS.missingField, 'no urls');
  });
});

describe('tunnel sessions without agents', () => {
  it('the list is an empty envelope', async () => {
    const r = await alice('GET', '/tunnel_sessions');
    expectStatus(r, 200);
    expect(r.body).toMatchObject({ tunnel_sessions: [], next_page_uri: null });
    expect(r.body.uri).toMatch(new RegExp(`^${base}/tunnel_sessions`));
  });
  it('get and commands on unknown ids are 301, malformed 222', async () => {
    expectError(await alice('GET', '/tunnel_sessions/ts_Unknown1'), ERRORS.notFound, 'get');
    for (const cmd of ['restart', 'stop', 'update']) {
      expectError(
        await alice('POST', `/tunnel_sessions/ts_Unknown1/${cmd}`, {}),
        ERRORS.notFound,
        cmd,
      );
      expectError(
        await alice('POST', `/tunnel_sessions/cr_Unknown1/${cmd}`, {}),
        ERRORS.malformedPathId,
        cmd,
      );
    }
  });
});

describe('pagination', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 250; i++) {
      const r = await dave('POST', '/ip_policies', { description: `p${i}` });
      if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${JSON.stringify(r.body)}`);
      ids.push(r.body.id);
    }
  });

  it('250 IP policies in pages of 100: newest first, full next_page_uri, null on the last, no gaps', async () => {
    const seen: string[] = [];
    const pages: number[] = [];
    let next: string | null = `${base}/ip_policies?limit=100`;
    while (next !== null && pages.length < 10) {
      expect(next.startsWith(`${base}/`), `next_page_uri ${next} is a full URL`).toBe(true);
      const r = await dave('GET', next);
      expectStatus(r, 200, `GET ${next}`);
      expect(representationProblems(r.body, base)).toEqual([]);
      pages.push(r.body.ip_policies.length);
      seen.push(...(r.body.ip_policies as { id: string }[]).map((p) => p.id));
      next = r.body.next_page_uri;
    }
    expect(pages).toEqual([100, 100, 50]);
    expect(seen).toEqual([...ids].reverse());
  });

  it('limit defaults to 100; before_id starts after the given id', async () => {
    const r = await dave('GET', '/ip_policies');
    expect(r.body.ip_policies).toHaveLength(100);
    expect(r.body.next_page_uri).toMatch(new RegExp(`^${base}/ip_policies\\?`));
    const b = await dave('GET', `/ip_policies?before_id=${ids[10]}&limit=5`);
    expect(b.body.ip_policies.map((p: { id: string }) => p.id)).toEqual(ids.slice(5, 10).reverse());
    const last = await dave('GET', `/ip_policies?before_id=${ids[0]}`);
    expect(last.body).toMatchObject({ ip_policies: [], next_page_uri: null });
  });

  it('the page that ends exactly at the last item has next_page_uri null', async () => {
    const r = await dave('GET', `/ip_policies?before_id=${ids[100]}&limit=100`);
    expect(r.body.ip_policies).toHaveLength(100);
    expect(r.body.next_page_uri, 'no more results exist').toBeNull();
  });

  const lists = ENDPOINTS.filter((e) => 'listKey' in e);
  for (const e of lists) {
    it(`${e.name}: envelope; 233 bad limit, 231 unknown parameter, 321 bad before_id`, async () => {
      const ok = await alice('GET', e.path);
      expectStatus(ok, 200);
      expect(Object.keys(ok.body)).toEqual(
        expect.arrayContaining([(e as { listKey: string }).listKey, 'uri', 'next_page_uri']),
      );
      for (const limit of ['0', '101', '1.5', '-1', 'abc', '', '1e2', '99999999999999999999'])
        expectError(
          await alice('GET', `${e.path}?limit=${encodeURIComponent(limit)}`),
          ERRORS.invalidLimit,
          `limit=${limit}`,
        );
      expectStatus(await alice('GET', `${e.path}?limit=1`), 200, 'limit=1');
      expectStatus(await alice('GET', `${e.path}?limit=100`), 200, 'limit=100');
      expectError(await alice('GET', `${e.path}?foo=1`), ERRORS.unknownQueryParameter, 'foo=1');
      expectError(
        await alice('GET', `${e.path}?limit=10&page=2`),
        ERRORS.unknownQueryParameter,
        'page=2',
      );
      const kind =
        (
          ENDPOINTS.find((x) => x.method === 'GET' && x.path === `${e.path}/{id}`)!
            .pathParams as Record<string, IdKind>
        )['id'] ?? 'ipPolicy';
      for (const before of [
        'nope',
        kind === 'ipPolicy' ? 'cr_Abc1' : 'ipp_Abc1',
        `${ID_PREFIXES[kind]}bad-id`,
      ])
        expectError(
          await alice('GET', `${e.path}?before_id=${encodeURIComponent(before)}`),
          ERRORS.invalidBeforeId,
          `before_id=${before}`,
        );
    });
  }
});

describe('isolation between accounts', () => {
  const kinds = [...CREATE_OF.keys()].filter((k) => k !== 'httpsEdgeRoute');
  for (const kind of kinds) {
    it(`${kind}: another account's key gets 301 (404, not 403) on get, patch and delete`, async () => {
      const id = world.get(kind) as string;
      const path = `${CREATE_OF.get(kind)?.path}/${id}`;
      expectError(await carol('GET', path), ERRORS.notFound, `carol GET ${path}`);
      const update = ENDPOINTS.find(
        (e) => e.method === 'PATCH' && e.path === `${CREATE_OF.get(kind)?.path}/{id}`,
      );
      if (update)
        expectError(
          await carol('PATCH', path, { description: 'mine now' }),
          ERRORS.notFound,
          `carol PATCH ${path}`,
        );
      if (kind !== 'abuseReport')
        expectError(await carol('DELETE', path), ERRORS.notFound, `carol DELETE ${path}`);
      const still = await alice('GET', path);
      expectStatus(still, 200, 'alice still has it');
      expect(still.body.description).not.toBe('mine now');
      const listPath = CREATE_OF.get(kind)?.path ?? '';
      const list = ENDPOINTS.find(
        (e) => e.method === 'GET' && e.path === listPath && 'listKey' in e,
      );
      if (list) expect(JSON.stringify((await carol('GET', listPath)).body)).not.toContain(id);
    });
  }
  it("routes and modules of another account's edge are 301", async () => {
    const path = `/edges/https/${worldRoute.edge_id}/routes/${worldRoute.id}`;
    expectError(await carol('GET', path), ERRORS.notFound, 'route');
    expectError(
      await carol('PUT', `${path}/compression`, { enabled: true }),
      ERRORS.notFound,
      'route module PUT',
    );
    expectError(
      await carol('POST', `/edges/https/${worldRoute.edge_id}/routes`, {
        match_type: 'path_prefix',
        match: '/carol',
      }),
      ERRORS.notFound,
      'route create',
    );
    expectError(
      await carol('PUT', `/edges/tls/${world.get('tlsEdge')}/backend`, {
        backend_id: refs.httpResponseBackend,
      }),
      ERRORS.notFound,
      'tls module PUT',
    );
  });
});

describe('authentication, version, content type', () => {
  const path = '/ip_policies';
  it('200 no Authorization header', async () => {
    const h = goodHeaders(KEYS.alice, false);
    delete h['authorization'];
    expectError(await raw(base, { method: 'GET', path, headers: h }), ERRORS.noAuthorization);
  });
  it('201 Authorization that is not Bearer <key>', async () => {
    for (const auth of [
      `Basic ${Buffer.from('alice:pw').toString('base64')}`,
      `Token ${KEYS.alice}`,
      'Bearer',
      'Bearer ',
      KEYS.alice,
    ]) {
      const reply = await raw(base, {
        method: 'GET',
        path,
        headers: { ...goodHeaders(KEYS.alice, false), authorization: auth },
      });
      expectError(reply, ERRORS.malformedAuthorization, JSON.stringify(auth));
    }
  });
  it('203 unknown key', async () => {
    expectError(
      await raw(base, { method: 'GET', path, headers: goodHeaders('no-such-key', false) }),
      ERRORS.unknownApiKey,
    );
  });
  it('206 a tunnel credential token used as an API key', async () => {
    const token = (await alice('POST', '/credentials', {})).body.token as string;
    expectError(
      await raw(base, { method: 'GET', path, headers: goodHeaders(token, false) }),
      ERRORS.authtokenAsApiKey,
    );
  });
  it('218 no Service-Version (the message names the header and version 2), 217 unsupported', async () => {
    const h = goodHeaders(KEYS.alice, false);
    delete h['service-version'];
    const r = await raw(base, { method: 'GET', path, headers: h });
    expectError(r, ERRORS.missingVersion);
    expect(r.body.msg).toMatch(/Service-Version/i);
    expect(r.body.msg).toMatch(/\b2\b/);
    for (const v of ['1', '3', 'abc', '2.0'])
      expectError(
        await raw(base, {
          method: 'GET',
          path,
          headers: { ...goodHeaders(KEYS.alice, false), 'service-version': v },
        }),
        ERRORS.unsupportedVersion,
        `version ${JSON.stringify(v)}`,
      );
  });
  it('216 body without Content-Type, 210 another type', async () => {
    const h = goodHeaders(KEYS.alice);
    delete h['content-type'];
    expectError(
      await raw(base, { method: 'POST', path, headers: h, body: '{}' }),
      ERRORS.missingContentType,
    );
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'multipart/form-data; boundary=x',
    ])
      expectError(
        await raw(base, {
          method: 'POST',
          path,
          headers: { ...h, 'content-type': type },
          body: '{}',
        }),
        ERRORS.unsupportedContentType,
        type,
      );
  });
  it('213 invalid JSON, a JSON array or a JSON string', async () => {
    for (const body of [
      '{not json',
      '[1,2]',
      '"a string"',
      '42',
      'null',
      '{"description":',
      '{"a":1}{"b":2}',
    ])
      expectError(
        await raw(base, { method: 'POST', path, headers: goodHeaders(KEYS.alice), body }),
        ERRORS.invalidJsonBody,
        JSON.stringify(body),
      );
  });
  it('226 rate limit, per account, in the error shape', async () => {
    const limited = await startSandbox({
      accounts: ACCOUNTS,
      rateLimit: { requests: 5, windowSeconds: 60 },
    });
    try {
      const url = limited.url.replace(/\/+$/, '');
      const a = apiCaller(url, KEYS.alice);
      for (let i = 0; i < 5; i++) expectStatus(await a('GET', path), 200, `request ${i + 1}`);
      expectError(await a('GET', path), ERRORS.rateLimited, '6th request');
      expectStatus(
        await apiCaller(url, KEYS.carol)('GET', path),
        200,
        'another account is not limited',
      );
    } finally {
      await limited.close();
    }
  });
});

describe('paths, methods and bodies', () => {
  it('302 unknown path', async () => {
    for (const p of [
      '/nope',
      '/',
      '/v1/ip_policies',
      '/ip_policies/ipp_Abc1/extra',
      '/edges',
      '/backends',
      '/edges/tls/edgtls_Abc1/no_such_module',
    ])
      expectError(await alice('GET', p), ERRORS.unknownPath, p);
  });

  const byPath = new Map<string, Set<string>>();
  for (const e of ENDPOINTS) byPath.set(e.path, (byPath.get(e.path) ?? new Set()).add(e.method));
  for (const [p, allowed] of byPath) {
    const wrong = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !allowed.has(m));
    if (wrong.length === 0) continue;
    it(`303 on ${p} for ${wrong.join(', ')}, with Allow: ${[...allowed].join(', ')}`, async () => {
      const e = ENDPOINTS.find((x) => x.path === p) as Endpoint;
      const path = fillPath(p, worldParams(e));
      for (const method of wrong) {
        const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined;
        const r = await raw(base, {
          method,
          path,
          headers: goodHeaders(KEYS.alice, body !== undefined),
          ...(body !== undefined && { body }),
        });
        expectError(r, ERRORS.methodNotAllowed, `${method} ${path}`);
        const allow = String(r.headers['allow'] ?? '')
          .split(',')
          .map((s) => s.trim().toUpperCase());
        for (const m of allowed) expect(allow, `${method} ${path}: Allow header`).toContain(m);
        expect(allow).not.toContain(method);
      }
    });
  }

  it('323 a body on GET or DELETE', async () => {
    expectError(
      await raw(base, {
        method: 'GET',
        path: '/ip_policies',
        headers: goodHeaders(KEYS.alice),
        body: '{}',
      }),
      ERRORS.bodyNotAllowed,
      'GET',
    );
    const id = await f.make('ipPolicy');
    expectError(
      await raw(base, {
        method: 'DELETE',
        path: `/ip_policies/${id}`,
        headers: goodHeaders(KEYS.alice),
        body: '{"a":1}',
      }),
      ERRORS.bodyNotAllowed,
      'DELETE',
    );
    expectStatus(await alice('GET', `/ip_policies/${id}`), 200, 'not deleted');
  });

  it('322 a huge body', async () => {
    const body = JSON.stringify({ description: 'x'.repeat(8 * 1024 * 1024) });
    const r = await raw(base, {
      method: 'POST',
      path: '/ip_policies',
      headers: goodHeaders(KEYS.alice),
      body,
    });
    expectError(r, ERRORS.bodyTooLarge);
    expectStatus(await alice('GET', '/ip_policies?limit=1'), 200, 'still serving');
  });

  it('every error reply carries a code of the ERRORS table with its status', async () => {
    const replies = [
      await alice('GET', '/nope'),
      await alice('GET', '/ip_policies/ipp_Unknown1'),
      await alice('POST', '/ip_policies', { x: 1 }),
    ];
    for (const r of replies) {
      const spec = ERROR_BY_CODE.get(r.body?.error_code);
      expect(spec, r.body?.error_code).toBeDefined();
      expect(r.status).toBe(spec?.status);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});

describe('schema sanity of lists after everything', () => {
  it('every list of acme parses with its catalog schema', async () => {
    for (const e of ENDPOINTS.filter((x) => 'listKey' in x)) {
      const r = await alice('GET', e.path);
      expect(schemaIssues(e.response as NonNullable<Endpoint['response']>, r.body), e.name).toEqual(
        [],
      );
      expect(representationProblems(r.body, base), e.name).toEqual([]);
    }
  });
});

describe('further rules of the spec and of the documented decisions', () => {
  it('the default rate limit is 120 requests per 60 s per account', async () => {
    const dflt = await startSandbox({ accounts: ACCOUNTS });
    try {
      const a = apiCaller(dflt.url.replace(/\/+$/, ''), KEYS.alice);
      const statuses: number[] = [];
      for (let i = 0; i < 121; i++) statuses.push((await a('GET', '/ip_policies?limit=1')).status);
      expect(
        statuses.slice(0, 120).every((s) => s === 200),
        'the first 120 pass',
      ).toBe(true);
      expectError(await a('GET', '/ip_policies?limit=1'), ERRORS.rateLimited, '122nd');
      expect(statuses[120]).toBe(429);
    } finally {
      await dflt.close();
    }
  });

  it('231: endpoints that take no query parameters refuse them', async () => {
    const id = world.get('ipPolicy') as string;
    expectError(
      await alice('GET', `/ip_policies/${id}?foo=1`),
      ERRORS.unknownQueryParameter,
      'GET item ?foo',
    );
    expectError(
      await alice('GET', `/ip_policies/${id}?limit=5`),
      ERRORS.unknownQueryParameter,
      'GET item ?limit',
    );
    expectError(
      await alice('POST', '/ip_policies?foo=1', {}),
      ERRORS.unknownQueryParameter,
      'POST ?foo',
    );
  });

  it('module enabled defaults to true; an edge TLS termination gets a min_version chosen', async () => {
    const r = await f.route();
    const p = `/edges/https/${r.edge_id}/routes/${r.id}`;
    const c = await alice('PUT', `${p}/compression`, {});
    expectStatus(c, 200);
    expect(c.body).toEqual({ enabled: true });
    const cb = await alice('PUT', `${p}/circuit_breaker`, {});
    expect(cb.body).toEqual({
      enabled: true,
      tripped_duration: 10,
      rolling_window: 10,
      num_buckets: 10,
      volume_threshold: 10,
      error_threshold_percentage: 0.5,
    });
    expectError(
      await alice('PUT', `${p}/circuit_breaker`, { num_buckets: 129 }),
      ERRORS.invalidValue,
      'num_buckets 129',
    );
    expectError(
      await alice('PUT', `${p}/circuit_breaker`, { error_threshold_percentage: 50 }),
      ERRORS.invalidValue,
      'percentage 50',
    );
    const edge = await f.make('tlsEdge');
    const t = await alice('PUT', `/edges/tls/${edge}/tls_termination`, {});
    expectStatus(t, 200);
    expect(t.body).toMatchObject({ enabled: true, terminate_at: 'edge' });
    expect(['1.0', '1.1', '1.2', '1.3'], 'an industry-safe default is chosen').toContain(
      t.body.min_version,
    );
    const up = await alice('PUT', `/edges/tls/${edge}/tls_termination`, {
      terminate_at: 'upstream',
    });
    expect(up.body).toMatchObject({ terminate_at: 'upstream', min_version: null });
  });

  it('agent ingresses: region domains are subdomains of the domain, which PATCH cannot change', async () => {
    const domain = `ingress-${unique()}.example.com`;
    const r = await alice('POST', '/agent_ingresses', { domain });
    expectStatus(r, 201);
    expect(r.body.ns_targets.length, 'ns_targets').toBeGreaterThan(0);
    for (const d of r.body.region_domains as string[])
      expect(d.endsWith(`.${domain}`), d).toBe(true);
    expectError(
      await alice('PATCH', `/agent_ingresses/${r.body.id}`, { domain: 'other.example.com' }),
      ERRORS.unknownField,
      'domain on PATCH',
    );
    expectError(
      await alice('POST', '/agent_ingresses', { domain: 'not a domain' }),
      ERRORS.invalidValue,
      'bad domain',
    );
  });

  it('certificate authorities read their fields out of the PEM', async () => {
    const r = await alice('POST', '/certificate_authorities', {
      ca_pem: exampleBody('certificateAuthorities.create', refs)['ca_pem'],
    });
    expectStatus(r, 201);
    expect(r.body).toMatchObject({
      subject_common_name: 'Burrow Test CA',
      not_before: expect.stringMatching(/^2026-11-21T22:28:30(\.0+)?Z$/),
      not_after: expect.stringMatching(/^2036-11-18T22:28:30(\.0+)?Z$/),
    });
    expectError(
      await alice('POST', '/certificate_authorities', { ca_pem: 'not a pem' }),
      ERRORS.invalidValue,
      'not a PEM',
    );
  });

  it('SSH certificate valid_after defaults to now', async () => {
    const r = await alice('POST', '/ssh_user_certificates', {
      ssh_certificate_authority_id: refs.sshCertificateAuthority,
      public_key: freshSshPublicKey(),
    });
    expect(Math.abs(Date.now() - Date.parse(r.body.valid_after))).toBeLessThan(120_000);
    expect(r.body.ssh_certificate_authority_id).toBe(refs.sshCertificateAuthority);
  });

  it('hostports, labels and route matches are checked (215)', async () => {
    for (const hp of [
      'example.com',
      'example.com:0',
      'example.com:65536',
      '*.example.com:443',
      'example.com:0443',
      ':443',
    ])
      expectError(
        await alice('POST', '/edges/tls', { hostports: [hp] }),
        ERRORS.invalidValue,
        `hostport ${hp}`,
      );
    expectStatus(
      await alice('POST', '/edges/tls', {
        hostports: ['[::1]:8443', '10.0.0.1:443', `h-${unique()}.example.com:65535`],
      }),
      201,
      'valid hostports',
    );
    expectError(
      await alice('POST', '/backends/tunnel_group', { labels: {} }),
      ERRORS.invalidValue,
      'no labels',
    );
    expectError(
      await alice('POST', '/backends/tunnel_group', { labels: { 'bad key': 'x' } }),
      ERRORS.invalidValue,
      'bad label',
    );
    const edge = await f.make('httpsEdge');
    expectError(
      await alice('POST', `/edges/https/${edge}/routes`, {
        match_type: 'path_prefix',
        match: '/a b',
      }),
      ERRORS.invalidValue,
      'match with a space',
    );
    expectError(
      await alice('POST', `/edges/https/${edge}/routes`, { match_type: 'regex', match: '/a' }),
      ERRORS.invalidValue,
      'match_type',
    );
  });
});
