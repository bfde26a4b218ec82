import { expect } from 'vitest';
import type { z } from 'zod';
import { ID_PREFIXES, idKindOf, type IdKind } from '../../../../shared/api/values/ids.ts';
import { CREATE_OF } from './factory.ts';
import type { ReplyBody } from './http.ts';

export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Zod's verdict on a value, as a list of readable issues (empty when it parses). */
export function schemaIssues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

/** The collection path of a kind of resource (refs point there), when it has one of its own. */
function collectionOf(kind: IdKind): string | undefined {
  if (kind === 'httpsEdgeRoute') return undefined; // nested under its edge
  return CREATE_OF.get(kind)?.path;
}

/**
 * Problems anywhere in a representation: every `uri` and `next_page_uri` must be a full URL under
 * the base, every `created_at`/`started_at` RFC 3339 in UTC, and every `{id, uri}` reference to a
 * top-level resource must point at that resource's own URL.
 */
export function representationProblems(value: unknown, base: string, at = '$'): string[] {
  if (Array.isArray(value))
    return value.flatMap((v, i) => representationProblems(v, base, `${at}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  const obj = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [key, v] of Object.entries(obj)) {
    const where = `${at}.${key}`;
    if ((key === 'uri' || key === 'next_page_uri') && v !== null) {
      if (typeof v !== 'string' || !v.startsWith(`${base}/`))
        problems.push(`${where} ${JSON.stringify(v)} is not a full URL under ${base}`);
    }
    if (
      (key === 'created_at' || key === 'started_at') &&
      !(typeof v === 'string' && RFC3339_UTC.test(v))
    )
      problems.push(`${where} ${JSON.stringify(v)} is not RFC 3339 UTC`);
    problems.push(...representationProblems(v, base, where));
  }
  if (typeof obj['id'] === 'string' && typeof obj['uri'] === 'string') {
    const kind = idKindOf(obj['id']);
    const path = kind && collectionOf(kind);
    if (path && obj['uri'] !== `${base}${path}/${obj['id']}`)
      problems.push(`${at}.uri ${obj['uri']} should be ${base}${path}/${obj['id']}`);
  }
  return problems;
}

/** Asserts a successful reply: status, schema, URLs and timestamps, and the id's prefix. */
export function expectRepresentation(
  reply: { status: number; body: ReplyBody },
  opts: {
    status: number;
    schema: z.ZodType | null;
    base: string;
    kind?: IdKind | undefined;
    uri?: string | undefined;
    context: string;
  },
): void {
  const { context } = opts;
  expect(
    reply.status,
    `${context}: status; body ${JSON.stringify(reply.body)?.slice(0, 500)}`,
  ).toBe(opts.status);
  if (opts.status === 204) {
    expect(reply.body, `${context}: a 204 has no body`).toBeNull();
    return;
  }
  if (opts.schema)
    expect(schemaIssues(opts.schema, reply.body), `${context}: response schema`).toEqual([]);
  // Soft: a wrong uri should not hide what the rest of the test checks.
  expect
    .soft(representationProblems(reply.body, opts.base), `${context}: uris and times`)
    .toEqual([]);
  if (opts.kind) {
    expect(String(reply.body?.id), `${context}: id prefix`).toMatch(
      new RegExp(`^${ID_PREFIXES[opts.kind]}[A-Za-z0-9]{1,64}$`),
    );
    expect(reply.body?.created_at ?? reply.body?.started_at, `${context}: created_at`).toMatch(
      RFC3339_UTC,
    );
  }
  if (opts.uri !== undefined) expect.soft(reply.body?.uri, `${context}: uri`).toBe(opts.uri);
}
