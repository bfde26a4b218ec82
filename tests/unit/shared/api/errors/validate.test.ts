import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EndpointBackendMutate } from '../../../../../shared/api/kinds/edge-modules.ts';
import { rule } from '../../../../../shared/api/errors/rules.ts';
import {
  bodyProblems,
  formatPath,
  validateBody,
} from '../../../../../shared/api/errors/validate.ts';
import { expectRejected } from '../expect-validation.ts';

const Body = z.strictObject({
  name: z.string().min(1).max(5),
  count: z.int().min(1).max(10).optional(),
  ratio: z.number().gt(0).lt(1).optional(),
  on: z.boolean().optional(),
  tags: z.array(z.string()).min(1).max(2).optional(),
  kind: z.enum(['a', 'b']).optional(),
  only: z.literal('x').optional(),
  site: z.url().optional(),
  mail: z.email().optional(),
  at: z.iso.datetime().optional(),
  code: z
    .string()
    .regex(/^[A-Z]+$/, 'must be capital letters')
    .optional(),
  nested: z.strictObject({ inner: z.string(), maybe: z.string().nullable().optional() }).optional(),
  routes: z.array(z.strictObject({ backend: EndpointBackendMutate })).optional(),
  custom: z
    .string()
    .refine((s) => s === 'ok', 'must be "ok"')
    .optional(),
  coded: z
    .string()
    .refine((s) => s === 'ok', rule('invalidAclRule', 'is not a rule'))
    .optional(),
  misnamed: z
    .string()
    .refine((s) => s === 'ok', { params: { error: 'notAnErrorName' }, message: 'is off' })
    .optional(),
});

describe('validateBody', () => {
  it('returns the parsed value, defaults filled in', () => {
    expect(
      validateBody(Body, { name: 'n', routes: [{ backend: { backend_id: 'bkdtg_1' } }] }),
    ).toEqual({
      ok: true,
      value: { name: 'n', routes: [{ backend: { enabled: true, backend_id: 'bkdtg_1' } }] },
    });
  });

  it.each([null, [], 'text', 42, true, undefined])(
    'answers a body that is not a JSON object (%j) with ERR_SERVICE_213',
    (body) => {
      expect(validateBody(Body, body)).toEqual({
        ok: false,
        error: {
          name: 'invalidJsonBody',
          code: 'ERR_SERVICE_213',
          status: 400,
          field: undefined,
          msg: 'the body must be a JSON object',
        },
      });
    },
  );

  it('answers an unknown field with ERR_SERVICE_214 naming it, nested ones by path', () => {
    expect(validateBody(Body, { name: 'n', foo: 1 })).toEqual({
      ok: false,
      error: {
        name: 'unknownField',
        code: 'ERR_SERVICE_214',
        status: 400,
        field: 'foo',
        msg: 'unknown field "foo"',
      },
    });
    expect(
      expectRejected(
        Body,
        { name: 'n', nested: { inner: 'i', extra: 1 } },
        'unknownField',
        'nested.extra',
      ),
    ).toBe('unknown field "nested.extra"');
    expectRejected(
      Body,
      { name: 'n', routes: [{ backend: { backend_id: 'bkdtg_1', x: 1 } }] },
      'unknownField',
      'routes[0].backend.x',
    );
  });

  it('answers a missing required field with ERR_SERVICE_300 naming it', () => {
    expect(validateBody(Body, {})).toEqual({
      ok: false,
      error: {
        name: 'missingField',
        code: 'ERR_SERVICE_300',
        status: 400,
        field: 'name',
        msg: 'missing required field "name"',
      },
    });
    expectRejected(Body, { name: 'n', nested: {} }, 'missingField', 'nested.inner');
    expectRejected(
      Body,
      { name: 'n', routes: [{ backend: {} }] },
      'missingField',
      'routes[0].backend.backend_id',
    );
    expectRejected(Body, { name: 'n', routes: [{}] }, 'missingField', 'routes[0].backend');
  });

  it('answers null for a required field as an invalid value, not a missing one', () => {
    expect(expectRejected(Body, { name: null }, 'invalidValue', 'name')).toBe(
      '"name" must be a string',
    );
    expectRejected(Body, { name: 'n', nested: { inner: null } }, 'invalidValue', 'nested.inner');
    expect(validateBody(Body, { name: 'n', nested: { inner: 'i', maybe: null } }).ok).toBe(true);
  });

  it.each([
    [{ name: 5 }, 'name', '"name" must be a string'],
    [{ name: '' }, 'name', '"name" must not be empty'],
    [{ name: 'toolong' }, 'name', '"name" must be at most 5 characters'],
    [{ name: 'n', count: 1.5 }, 'count', '"count" must be an integer'],
    [{ name: 'n', count: 0 }, 'count', '"count" must be at least 1'],
    [{ name: 'n', count: 11 }, 'count', '"count" must be at most 10'],
    [{ name: 'n', count: '3' }, 'count', '"count" must be a number'],
    [{ name: 'n', ratio: 0 }, 'ratio', '"ratio" must be greater than 0'],
    [{ name: 'n', ratio: 1 }, 'ratio', '"ratio" must be less than 1'],
    [{ name: 'n', on: 'true' }, 'on', '"on" must be a boolean'],
    [{ name: 'n', tags: 'a' }, 'tags', '"tags" must be an array'],
    [{ name: 'n', tags: [] }, 'tags', '"tags" must have at least 1 item'],
    [{ name: 'n', tags: ['a', 'b', 'c'] }, 'tags', '"tags" must have at most 2 items'],
    [{ name: 'n', tags: ['a', 1] }, 'tags[1]', '"tags[1]" must be a string'],
    [{ name: 'n', kind: 'c' }, 'kind', '"kind" must be one of "a", "b"'],
    [{ name: 'n', only: 'y' }, 'only', '"only" must be "x"'],
    [{ name: 'n', site: 'nope' }, 'site', '"site" must be a valid URL'],
    [{ name: 'n', mail: 'nope' }, 'mail', '"mail" must be a valid email address'],
    [
      { name: 'n', at: 'noon' },
      'at',
      '"at" must be an RFC 3339 timestamp such as "2025-01-31T12:00:00Z"',
    ],
    [{ name: 'n', code: 'abc' }, 'code', '"code" must be capital letters'],
    [{ name: 'n', nested: 'x' }, 'nested', '"nested" must be an object'],
    [{ name: 'n', custom: 'no' }, 'custom', '"custom" must be "ok"'],
    [{ name: 'n', misnamed: 'no' }, 'misnamed', '"misnamed" is off'],
  ])('answers %j with ERR_SERVICE_215 at %s: %s', (body, field, msg) => {
    expect(validateBody(Body, body)).toEqual({
      ok: false,
      error: { name: 'invalidValue', code: 'ERR_SERVICE_215', status: 400, field, msg },
    });
  });

  it('maps a rule carrying its error in the issue params to that error', () => {
    expect(validateBody(Body, { name: 'n', coded: 'no' })).toEqual({
      ok: false,
      error: {
        name: 'invalidAclRule',
        code: 'ERR_SERVICE_309',
        status: 400,
        field: 'coded',
        msg: '"coded" is not a rule',
      },
    });
  });

  it('reports the first problem only', () => {
    expectRejected(Body, { name: 5, count: 'x', foo: 1 }, 'invalidValue', 'name');
  });

  it('speaks of the body as a whole for a rule without a path', () => {
    const Whole = z.strictObject({}).refine(() => false, 'needs something');
    expect(validateBody(Whole, {})).toMatchObject({
      ok: false,
      error: { field: undefined, msg: 'the body needs something' },
    });
  });
});

describe('formatPath', () => {
  it.each([
    [['name'], 'name'],
    [['tls_termination', 'min_version'], 'tls_termination.min_version'],
    [['routes', 0, 'backend', 'backend_id'], 'routes[0].backend.backend_id'],
    [['critical_options', 'force-command'], 'critical_options.force-command'],
    [['add', 'bad name'], 'add["bad name"]'],
    [['labels', 'a.b'], 'labels["a.b"]'],
    [[3], '[3]'],
  ])('%j → %s', (path, text) => {
    expect(formatPath(path)).toBe(text);
  });
});

describe('bodyProblems', () => {
  it('answers every problem of a body at once, each with its path and its rule', () => {
    expect(bodyProblems(Body, { count: 11, ratio: 2, extra: 1, tags: [] })).toEqual([
      { path: ['name'], rule: 'is required' },
      { path: ['count'], rule: 'must be at most 10' },
      { path: ['ratio'], rule: 'must be less than 1' },
      { path: ['tags'], rule: 'must have at least 1 item' },
      { path: ['extra'], rule: 'is not taken here' },
    ]);
    expect(bodyProblems(Body, { name: 'a', custom: 'no' })).toEqual([
      { path: ['custom'], rule: 'must be "ok"' },
    ]);
    expect(bodyProblems(Body, { name: 'a' })).toEqual([]);
  });
});
