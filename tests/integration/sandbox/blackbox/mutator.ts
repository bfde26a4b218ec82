import { ENDPOINTS } from '../../../../shared/api/catalog/endpoints.ts';
import type { ErrorName } from '../../../../shared/api/errors/errors.ts';
import { ID_PREFIXES, type IdKind } from '../../../../shared/api/values/ids.ts';
import { checkedRequestBody } from '../../../../shared/api/catalog/path-echo.ts';
import { bodyMayBeLeftOut } from '../../../../sandbox/http/checks.ts';
import { unsetValuesOut } from '../../../../sandbox/http/unset-values.ts';
import { exampleBody, type Refs } from './examples.ts';
import { fillPath } from './factory.ts';
import type { Prng } from './prng.ts';

type Endpoint = (typeof ENDPOINTS)[number];

/**
 * What a fuzz request must get: that error, or any refusal (4xx); undefined when it may also be
 * accepted (a mutation can leave a request valid).
 */
export type Expected = ErrorName | 'refused' | undefined;

/** One request of the fuzz run; `endpoint` is set when the request still targets that endpoint. */
export type FuzzCase = {
  readonly expect?: Expected;
  readonly category: string;
  readonly method: string;
  readonly path: string;
  /** Flat [name, value, …]: a name may come twice. */
  readonly headers: string[];
  readonly body?: string | Uint8Array;
  readonly endpoint?: Endpoint;
};

export type FuzzContext = {
  readonly refs: Refs;
  readonly apiKey: string;
  readonly otherKeys: readonly string[];
  /** Existing resources for the path parameters of an endpoint. */
  readonly params: (e: Endpoint) => Record<string, string>;
};

const KINDS = Object.keys(ID_PREFIXES) as IdKind[];
const PREFIXES = Object.values(ID_PREFIXES);
const MULTIBYTE = [
  'é',
  '€',
  '😀',
  '日本',
  'ß',
  '\u0301',
  '\u202e',
  '\u0000',
  '\ud800',
  '\ufeff',
  '𝔘',
  'ﷺ',
];
const WEIRD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '',
  ' ',
  'toString',
  'id',
  'uri',
  'created_at',
  'enabled',
  'zz',
];
const WITH_BODY = ENDPOINTS.filter((e) => e.body !== null);
const WITHOUT_DELETE = ENDPOINTS.filter((e) => e.method !== 'DELETE');
const LISTS = ENDPOINTS.filter((e) => 'listKey' in e);

/** Percent-encodes the UTF-8 of `s` (lone surrogates become U+FFFD), safe for any path. */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      b < 128 && /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');
}

/** Bodies of this size and more are "huge": an early close of the connection is then fair. */
export const HUGE_BODY_BYTES = 1024 * 1024;

function randomAscii(rng: Prng, n: number): string {
  return rng.string(n, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:*=@ ');
}

function multibyte(rng: Prng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += rng.pick(MULTIBYTE);
  return s;
}

function idLike(rng: Prng): string {
  switch (rng.int(0, 5)) {
    case 0:
      return `${rng.pick(PREFIXES)}${randomAscii(rng, rng.int(1, 20)).replace(/[^A-Za-z0-9]/g, 'x')}`;
    case 1:
      return `${rng.pick(PREFIXES)}${randomAscii(rng, rng.int(0, 80))}`;
    case 2:
      return `${rng.pick(PREFIXES)}${'A'.repeat(rng.int(60, 70))}`;
    case 3:
      return rng.pick(PREFIXES);
    case 4:
      return `${rng.pick(PREFIXES).toUpperCase()}abc123`;
    default:
      return `${rng.pick(PREFIXES)}${multibyte(rng, 3)}`;
  }
}

function randomString(rng: Prng): string {
  switch (rng.int(0, 9)) {
    case 0:
      return '';
    case 1:
      return multibyte(rng, rng.int(1, 200));
    case 2:
      return 'é'.repeat(rng.pick([127, 128, 2047, 2048, 2049]));
    case 3:
      return randomAscii(rng, rng.pick([255, 256, 4096, 4097, 70_000]));
    case 4:
      return idLike(rng);
    case 5:
      return rng.pick([
        'https://example.com/x',
        'ftp://x',
        'http://',
        'example.com:443',
        '[::1]:8080',
        '*.example.com',
        'bind:*',
        '*',
        'upstream',
        'edge',
        '1.3',
        'rsa',
        'github',
        'sns',
      ]);
    case 6:
      return rng.pick([
        'true',
        'null',
        '0',
        '-1',
        '{}',
        '[]',
        '"',
        '\\',
        '\r\n',
        '<script>',
        "' OR 1=1 --",
        '../../etc/passwd',
        '%00',
      ]);
    default:
      return randomAscii(rng, rng.int(1, 40));
  }
}

function deep(rng: Prng, depth: number): unknown {
  let v: unknown = rng.bool() ? 1 : 'x';
  for (let i = 0; i < depth; i++) v = rng.bool() ? [v] : { a: v };
  return v;
}

function randomValue(rng: Prng, depth = 0): unknown {
  switch (rng.int(0, 11)) {
    case 0:
      return null;
    case 1:
      return rng.bool();
    case 2:
      return rng.pick([
        0,
        -1,
        1,
        0.5,
        -0.000001,
        2 ** 31,
        2 ** 32,
        2 ** 53 + 2,
        1e308,
        -1e308,
        128,
        129,
        99999,
      ]);
    case 3:
      return depth > 2
        ? []
        : Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth + 1));
    case 4:
      return depth > 2
        ? {}
        : Object.fromEntries(
            Array.from({ length: rng.int(0, 3) }, () => [
              rng.pick(WEIRD_KEYS),
              randomValue(rng, depth + 1),
            ]),
          );
    case 5:
      return deep(rng, rng.int(10, 200));
    case 6:
      return Array.from({ length: rng.pick([200, 2000]) }, () => idLike(rng));
    default:
      return randomString(rng);
  }
}

type Json = unknown;

/** Every (container, key) pair in a JSON value, the root's parent included as undefined. */
function slots(value: Json): { parent: Record<string, Json> | Json[]; key: string | number }[] {
  const out: { parent: Record<string, Json> | Json[]; key: string | number }[] = [];
  const walk = (v: Json) => {
    if (Array.isArray(v))
      v.forEach((item, i) => {
        out.push({ parent: v, key: i });
        walk(item);
      });
    else if (typeof v === 'object' && v !== null)
      for (const [k, item] of Object.entries(v)) {
        out.push({ parent: v as Record<string, Json>, key: k });
        walk(item);
      }
  };
  walk(value);
  return out;
}

function containers(value: Json): (Record<string, Json> | Json[])[] {
  const out: (Record<string, Json> | Json[])[] = [];
  const walk = (v: Json) => {
    if (typeof v === 'object' && v !== null) {
      out.push(v as Record<string, Json>);
      for (const item of Object.values(v)) walk(item);
    }
  };
  walk(value);
  return out;
}

function wrongType(rng: Prng, v: Json): Json {
  if (typeof v === 'string') return rng.pick([1, true, null, [v], { v }]);
  if (typeof v === 'number') return rng.pick([String(v), true, null, [v], -v - 1, v + 0.5]);
  if (typeof v === 'boolean') return rng.pick([String(v), 1, 0, null]);
  if (Array.isArray(v)) return rng.pick([v[0] ?? 'x', {}, 'x', null]);
  return rng.pick(['x', [], 1, null]);
}

/** Applies one random change in place (the root may be replaced: the result is returned). */
function mutateOnce(rng: Prng, root: Json): Json {
  const all = slots(root);
  const op = rng.int(0, 9);
  if (op === 0 || all.length === 0) {
    const target = rng.pick(containers(root).length > 0 ? containers(root) : [{}]);
    if (Array.isArray(target)) target.push(randomValue(rng));
    else
      target[rng.bool(0.3) ? rng.pick(WEIRD_KEYS) : randomAscii(rng, rng.int(1, 12))] =
        randomValue(rng);
    return root;
  }
  const { parent, key } = rng.pick(all);
  const get = () => (parent as Record<string | number, Json>)[key];
  const set = (v: Json) => {
    (parent as Record<string | number, Json>)[key] = v;
  };
  switch (op) {
    case 1:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      break;
    case 2:
    case 3:
      set(wrongType(rng, get()));
      break;
    case 4:
      set(randomValue(rng));
      break;
    case 5:
      set(
        typeof get() === 'string' && /^[a-z]+_/.test(get() as string)
          ? idLike(rng)
          : randomString(rng),
      );
      break;
    case 6:
      set(multibyte(rng, rng.pick([64, 85, 86, 128, 1366, 1400])));
      break;
    case 7:
      set(rng.pick([[], {}, '', 0, null]));
      break;
    case 8:
      set(Array.isArray(get()) ? [...(get() as Json[]), ...(get() as Json[])] : [get(), get()]);
      break;
    default:
      set(deep(rng, rng.int(50, 2000)));
  }
  return root;
}

export function mutateBody(rng: Prng, example: Json): Json {
  let body: Json = structuredClone(example);
  const times = rng.int(1, 3);
  for (let i = 0; i < times; i++) body = mutateOnce(rng, body);
  if (rng.bool(0.03)) body = randomValue(rng);
  return body;
}

/** A textual corruption of a JSON document. */
function corruptJson(rng: Prng, text: string): string {
  const at = rng.int(0, text.length);
  switch (rng.int(0, 13)) {
    case 0:
      return text.slice(0, at); // truncated
    case 1:
      return (
        text.slice(0, at) +
        rng.pick(['{', '}', '[', ']', ',', ':', '"', '\\', "'", '\u0000', '\n']) +
        text.slice(at)
      );
    case 2:
      return text.slice(0, at) + text.slice(at + 1);
    case 3:
      return `${text.slice(0, -1)},}`; // trailing comma
    case 4:
      return text.replace('{', '{"description":"a","description":"b",'); // duplicate keys
    case 5:
      return `\ufeff${text}`;
    case 6:
      return `${'['.repeat(rng.pick([1000, 10_000, 100_000]))}${rng.bool() ? ']'.repeat(10) : ''}`;
    case 7:
      return `{"a":${'{"a":'.repeat(rng.pick([1000, 50_000]))}1${'}'.repeat(rng.pick([0, 1000]))}}`;
    case 8:
      return text.replace(/"/g, "'");
    case 9:
      return text.replace('{', '{/* comment */');
    case 10:
      return rng.pick([
        'NaN',
        'Infinity',
        '{"a":NaN}',
        '{"description":1e400}',
        '{"a":-}',
        'true',
        '[]',
        '""',
        '{"a":"\\ud800"}',
        '{"a":"\\u00"}',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
      ]);
    case 11:
      return `${text}${text}`;
    case 12:
      return text + ' '.repeat(rng.int(1, 5000));
    default:
      return text.slice(0, at) + randomAscii(rng, rng.int(1, 30)) + text.slice(at);
  }
}

function goodHeaders(ctx: FuzzContext, withBody: boolean): string[] {
  return [
    'authorization',
    `Bearer ${ctx.apiKey}`,
    'service-version',
    '2',
    ...(withBody ? ['content-type', 'application/json'] : []),
  ];
}

function mangleId(rng: Prng, id: string): string {
  switch (rng.int(0, 6)) {
    case 0:
      return `${rng.pick(PREFIXES)}${id.replace(/^[a-z]+_/, '')}`;
    case 1:
      return `${id}x`;
    case 2:
      return id.toUpperCase();
    case 3:
      return `${ID_PREFIXES[rng.pick(KINDS)]}Unknown${rng.int(0, 999)}`;
    case 4:
      return encodeURIComponent(`${id}/../${id}`);
    case 5:
      return pct(multibyte(rng, 3));
    default:
      return rng.pick([
        '..',
        '.',
        '%2e%2e',
        '%2F',
        '%00',
        '%zz',
        'null',
        'undefined',
        '-1',
        '0',
        `${id}%20`,
        `${id}%0A`,
      ]);
  }
}

function fuzzPath(rng: Prng, path: string): string {
  switch (rng.int(0, 11)) {
    case 0:
      return `${path}/`;
    case 1:
      return `/${path}`;
    case 2:
      return `${path}/..`;
    case 3:
      return `${path}/../../../../etc/passwd`;
    case 4:
      return `/${path.slice(1).replace(/\//g, '%2F')}%2F`;
    case 5:
      return `${path}%00`;
    case 6:
      return `${path}/${'a'.repeat(rng.pick([100, 5000]))}`;
    case 7:
      return path.toUpperCase();
    case 8:
      // Starts with a name no operation takes (an all-"&" query would be no query at all).
      return `${path}?x${randomAscii(rng, 20).replace(/[^A-Za-z0-9=&]/g, '&')}`;
    case 9:
      return `${path}/${pct(multibyte(rng, 5))}`;
    case 10:
      return `${path}#frag`.replace('#', '%23');
    default:
      return path.replace(/\/[^/]+$/, '/%2e%2e');
  }
}

/** A path for `e`, its ids sometimes mangled. */
function pathFor(rng: Prng, ctx: FuzzContext, e: Endpoint, mangle: boolean): string {
  const params = { ...ctx.params(e) };
  if (mangle)
    for (const key of Object.keys(params))
      if (rng.bool(0.6)) params[key] = mangleId(rng, params[key] ?? '');
  // Mangled ids are already encoded; fillPath would encode them again.
  return e.path.replace(/\{(\w+)\}/g, (_, p: string) =>
    mangle ? (params[p] ?? '') : encodeURIComponent(params[p] ?? ''),
  );
}

function validPath(ctx: FuzzContext, e: Endpoint): string {
  return fillPath(e.path, ctx.params(e));
}

const METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'HEAD',
  'PROPFIND',
  'PURGE',
  'MKCOL',
  'COPY',
  'SEARCH',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=utf-8',
  'application/JSON',
  'application/json-patch+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xx',
  'application/jsonx',
  '*/*',
  'application/json, text/plain',
  'application/octet-stream',
  'json',
  ';',
];

/** Content types the API takes; every other one in CONTENT_TYPES is refused (210). */
const JSON_TYPES = ['application/json; charset=utf-8', 'application/JSON'];

/**
 * Good headers with one thing changed, and what the server must answer: the Authorization and
 * Service-Version checks come first, then (for a body) Content-Type. Node keeps the first of a
 * repeated Authorization, Content-Type or Host and joins other repeated headers with ", ".
 */
function headerFuzz(
  rng: Prng,
  ctx: FuzzContext,
  e: Endpoint,
  withBody: boolean,
): { headers: string[]; expect: Expected } {
  const h = goodHeaders(ctx, withBody);
  const set = (name: string, value: string) => {
    const i = h.indexOf(name);
    if (i >= 0) h[i + 1] = value;
    else h.push(name, value);
  };
  const drop = (name: string) => {
    const i = h.indexOf(name);
    if (i >= 0) h.splice(i, 2);
  };
  /** Content-Type matters only for a body, and a body where none is taken is refused first. */
  const typed = (accepted: boolean): Expected => {
    if (!withBody) return undefined;
    if (e.body === null) return 'bodyNotAllowed';
    return accepted ? undefined : 'unsupportedContentType';
  };
  switch (rng.int(0, 13)) {
    case 0:
      drop('authorization');
      return { headers: h, expect: 'noAuthorization' };
    case 1: {
      const [value, expect] = rng.pick<[string, Expected]>([
        ['Bearer', 'malformedAuthorization'],
        ['bearer x', 'unknownApiKey'],
        ['Basic Zm9vOmJhcg==', 'malformedAuthorization'],
        [`Bearer  ${ctx.apiKey}`, undefined],
        [`Bearer ${ctx.apiKey} extra`, 'malformedAuthorization'],
        ['Bearer ' + 'k'.repeat(4000), 'unknownApiKey'],
        [`Token ${ctx.apiKey}`, 'malformedAuthorization'],
        ['', 'noAuthorization'],
        [`Bearer ${ctx.apiKey.toUpperCase()}`, 'unknownApiKey'],
      ]);
      set('authorization', value);
      return { headers: h, expect };
    }
    case 2:
      h.push('authorization', `Bearer ${rng.pick(ctx.otherKeys)}`); // twice: the first counts
      return { headers: h, expect: undefined };
    case 3:
      drop('service-version');
      return { headers: h, expect: 'missingVersion' };
    case 4: {
      const version = rng.pick([
        '1',
        '3',
        '2.0',
        'v2',
        '02',
        '-2',
        'two',
        '2 ',
        '99999999999999999999',
        '2,2',
      ]);
      set('service-version', version);
      return { headers: h, expect: version.trim() === '2' ? undefined : 'unsupportedVersion' };
    }
    case 5:
      h.push('service-version', rng.pick(['2', '1'])); // twice: "2, 2" or "2, 1"
      return { headers: h, expect: 'unsupportedVersion' };
    case 6:
      drop('content-type');
      return {
        headers: h,
        expect: withBody && e.body !== null ? 'missingContentType' : typed(true),
      };
    case 7: {
      const type = rng.pick(CONTENT_TYPES);
      set('content-type', type);
      return { headers: h, expect: typed(JSON_TYPES.includes(type)) };
    }
    case 8:
      h.push('content-type', rng.pick(CONTENT_TYPES)); // twice: the first counts
      return { headers: h, expect: typed(true) };
    case 9:
      h.push(
        'x-forwarded-for',
        '1.2.3.4',
        'x-http-method-override',
        rng.pick(METHODS),
        'host',
        'evil.example.com',
      );
      break;
    case 10:
      h.push('content-encoding', rng.pick(['gzip', 'br', 'deflate', 'identity', 'bogus']));
      break;
    case 11:
      h.push('accept-encoding', rng.pick(['gzip', 'br', 'x-bogus']), 'connection', 'close');
      break;
    case 12:
      h.push('accept', rng.pick(['text/html', 'application/xml', '*/*', '']));
      break;
    default:
      h.push(
        `x-${randomAscii(rng, 8).replace(/[^a-z0-9]/gi, 'a')}`,
        randomAscii(rng, rng.int(0, 2000)).replace(/[^\x21-\x7e ]/g, 'a'),
      );
  }
  return { headers: h, expect: typed(true) };
}

function bodyText(value: Json): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * What the server must answer a body sent with good headers to a valid path of `e`: the error of
 * the first check it fails (size, JSON, the echoed path parameters, the schema), or undefined
 * when it passes them all (the store's rules may still refuse it).
 */
function expectedForBody(e: Endpoint, params: Record<string, string>, text: string): Expected {
  if (Buffer.byteLength(text) > HUGE_BODY_BYTES) return 'bodyTooLarge';
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text.replace(/^\ufeff/, ''));
  } catch {
    return 'invalidJsonBody';
  }
  if (e.body === null || (json === undefined && !bodyMayBeLeftOut(e))) return 'invalidJsonBody';
  // Read as the server reads it: no body as {}, members that only say "unset" left out.
  const checked = checkedRequestBody(e, params, unsetValuesOut(e, json === undefined ? {} : json));
  return checked.ok ? undefined : checked.error.name;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Random bytes are refused unless they happen to be a JSON object in UTF-8. */
function expectedForBytes(bytes: Uint8Array): Expected {
  try {
    const json: unknown = JSON.parse(utf8.decode(bytes));
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? undefined
      : 'refused';
  } catch {
    return 'refused';
  }
}

/** The methods a path takes. */
function allowedOn(path: string): readonly string[] {
  return ENDPOINTS.filter((e) => e.path === path).map((e) => e.method);
}

/** One fuzz request, drawn from `rng`. */
export function generateCase(rng: Prng, ctx: FuzzContext): FuzzCase {
  const roll = rng.next();
  if (roll < 0.4) {
    const e = rng.pick(WITH_BODY);
    const mangle = rng.bool(0.1);
    const body = bodyText(mutateBody(rng, exampleBody(e.name, ctx.refs)));
    return {
      category: 'body-mutation',
      method: e.method,
      path: pathFor(rng, ctx, e, mangle),
      headers: goodHeaders(ctx, true),
      body,
      ...(!mangle && { endpoint: e, expect: expectedForBody(e, ctx.params(e), body) }),
    };
  }
  if (roll < 0.55) {
    const e = rng.pick(WITH_BODY);
    const text = corruptJson(rng, bodyText(exampleBody(e.name, ctx.refs)));
    return {
      category: 'json-text',
      method: e.method,
      path: validPath(ctx, e),
      headers: goodHeaders(ctx, true),
      body: text,
      endpoint: e,
      expect: expectedForBody(e, ctx.params(e), text),
    };
  }
  if (roll < 0.68) {
    const e = rng.pick(WITHOUT_DELETE);
    const base = pathFor(rng, ctx, e, rng.bool(0.7));
    const withBody = e.body !== null;
    return {
      category: 'path',
      expect: 'refused',
      method: e.method,
      path: fuzzPath(rng, base),
      headers: goodHeaders(ctx, withBody),
      ...(withBody && { body: bodyText(exampleBody(e.name, ctx.refs)) }),
    };
  }
  if (roll < 0.8) {
    const e = rng.pick(WITHOUT_DELETE);
    const withBody = e.body !== null || rng.bool(0.1);
    const body =
      e.body !== null ? bodyText(exampleBody(e.name, ctx.refs)) : withBody ? '{}' : undefined;
    const { headers, expect } = headerFuzz(rng, ctx, e, withBody);
    return {
      category: 'headers',
      expect,
      method: e.method,
      path: validPath(ctx, e),
      headers,
      ...(body !== undefined && { body }),
      endpoint: e,
    };
  }
  if (roll < 0.87) {
    const e = rng.pick(WITHOUT_DELETE);
    const method = rng.pick(METHODS);
    const withBody = rng.bool(0.5) && method !== 'HEAD';
    return {
      category: 'method',
      expect: allowedOn(e.path).includes(method) ? undefined : 'methodNotAllowed',
      method,
      path: validPath(ctx, e),
      headers: goodHeaders(ctx, withBody),
      ...(withBody && { body: bodyText(e.body !== null ? exampleBody(e.name, ctx.refs) : {}) }),
    };
  }
  if (roll < 0.94) {
    const e = rng.pick(LISTS);
    const params: string[] = [];
    for (let i = rng.int(1, 4); i > 0; i--) {
      const name = rng.pick([
        'limit',
        'limit',
        'before_id',
        'before_id',
        'after_id',
        'page',
        'LIMIT',
        '',
        'limit[]',
        '__proto__',
      ]);
      const value = name.startsWith('before')
        ? idLike(rng)
        : rng.pick([
            '0',
            '1',
            '100',
            '101',
            '-1',
            '1.5',
            '',
            'abc',
            '1e2',
            '007',
            '%zz',
            '%00',
            '+5',
            ' 5',
            '99999999999999999999',
            pct(multibyte(rng, 2)),
          ]);
      params.push(`${name}=${pct(value).replace(/%25(zz|00)/, '%$1')}`);
    }
    const names = params.map((p) => decodeURIComponent(p.slice(0, p.indexOf('='))));
    return {
      category: 'query',
      expect: names.every((n) => n === 'limit' || n === 'before_id') ? undefined : 'refused',
      method: 'GET',
      path: `${e.path}?${params.join('&')}`,
      headers: goodHeaders(ctx, false),
    };
  }
  if (roll < 0.996) {
    const e = rng.pick(WITH_BODY);
    const headers = goodHeaders(ctx, true);
    if (rng.bool(0.3)) headers[headers.length - 1] = rng.pick(CONTENT_TYPES);
    const body = rng.bytes(rng.int(0, 4096));
    return {
      category: 'random-bytes',
      expect: expectedForBytes(body),
      method: e.method,
      path: validPath(ctx, e),
      headers,
      body,
      endpoint: e,
    };
  }
  // A few huge bodies: a long description, and a huge array.
  const e = rng.pick(WITH_BODY);
  const huge = rng.bool()
    ? { ...exampleBody(e.name, ctx.refs), description: 'é'.repeat(rng.pick([300_000, 700_000])) }
    : { ...exampleBody(e.name, ctx.refs), zz: Array.from({ length: 200_000 }, (_, i) => i) };
  return {
    category: 'huge',
    expect: 'refused',
    method: e.method,
    path: validPath(ctx, e),
    headers: goodHeaders(ctx, true),
    body: bodyText(huge),
    endpoint: e,
  };
}
