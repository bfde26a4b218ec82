import type { z } from 'zod';
import { ERRORS, isErrorName, type ErrorCode, type ErrorName } from './errors.ts';

export type ValidationError = {
  readonly name: ErrorName;
  readonly code: ErrorCode;
  readonly status: number;
  /** Dotted path of the offending field, e.g. `routes[0].backend.backend_id`; absent for the body as a whole. */
  readonly field: string | undefined;
  readonly msg: string;
};

export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ValidationError };

type Issue = z.core.$ZodIssue;
type PathSegment = PropertyKey;

/** The error `name` as a failed validation, naming `field` when there is one. */
export function validationFailure(
  name: ErrorName,
  field: string | undefined,
  msg: string,
): { ok: false; error: ValidationError } {
  const { code, status } = ERRORS[name];
  return { ok: false, error: { name, code, status, field, msg } };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function formatPath(path: readonly PathSegment[]): string {
  return path
    .map((segment, i) => {
      if (typeof segment === 'number') return `[${segment}]`;
      const name = String(segment);
      if (!IDENTIFIER.test(name)) return `[${JSON.stringify(name)}]`;
      return i === 0 ? name : `.${name}`;
    })
    .join('');
}

/** Whether the issue is about a key its object does not have, i.e. a missing field rather than a wrong one. */
function isAbsent(input: unknown, path: readonly PathSegment[]): boolean {
  let parent = input;
  for (const segment of path.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return false;
    parent = (parent as Record<PropertyKey, unknown>)[segment];
  }
  const key = path.at(-1);
  return key !== undefined && isPlainObject(parent) && !Object.hasOwn(parent, key);
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  record: 'an object',
  null: 'null',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  url: 'a valid URL',
  email: 'a valid email address',
  datetime: 'an RFC 3339 timestamp such as "2025-01-31T12:00:00Z"',
};

const literal = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value) : String(value);
const plural = (n: number | bigint, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What is wrong with the value, as the end of a sentence that starts with the field's name. */
function describe(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${literal(issue.values[0])}`
        : `must be one of ${issue.values.map(literal).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1
          ? 'must not be empty'
          : `must be at least ${plural(issue.minimum, 'character')}`;
      if (issue.origin === 'array') return `must have at least ${plural(issue.minimum, 'item')}`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${plural(issue.maximum, 'character')}`;
      if (issue.origin === 'array') return `must have at most ${plural(issue.maximum, 'item')}`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'invalid_format':
      // Every `.regex()` of the model carries its own message fragment.
      if (issue.format === 'regex') return issue.message;
      return `must be ${FORMAT_NAMES[issue.format] ?? `in ${issue.format} format`}`;
    case 'invalid_key': {
      const [keyIssue] = issue.issues;
      return keyIssue ? describe(keyIssue) : 'is not a valid key';
    }
    default:
      return 'is invalid';
  }
}

function toError(
  issue: Issue,
  input: unknown,
  unknownKey: ErrorName,
  noun: string,
): { ok: false; error: ValidationError } {
  if (issue.code === 'unrecognized_keys') {
    const field = formatPath([...issue.path, issue.keys[0] ?? '']);
    return validationFailure(unknownKey, field, `unknown ${noun} "${field}"`);
  }
  const field = issue.path.length > 0 ? formatPath(issue.path) : undefined;
  const subject = field === undefined ? 'the body' : `"${field}"`;
  if (issue.code === 'custom') {
    const error: unknown = issue.params?.['error'];
    return validationFailure(
      isErrorName(error) ? error : 'invalidValue',
      field,
      `${subject} ${issue.message}`,
    );
  }
  if (isAbsent(input, issue.path))
    return validationFailure('missingField', field, `missing required ${noun} ${subject}`);
  return validationFailure('invalidValue', field, `${subject} ${describe(issue)}`);
}

function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  unknownKey: ErrorName,
  noun: string,
): Validated<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const [first] = result.error.issues;
  return first
    ? toError(first, input, unknownKey, noun)
    : validationFailure('invalidValue', undefined, 'the body is invalid');
}

/** One problem of a body as a form shows it: where it is, and what is wrong as the end of a sentence. */
export type BodyProblem = { readonly path: readonly PropertyKey[]; readonly rule: string };

/**
 * Every problem of a body at once, for a form that marks them all beside their fields; the
 * API (and `validateBody`) answers the first only.
 */
export function bodyProblems(schema: z.ZodType, body: Record<string, unknown>): BodyProblem[] {
  const result = schema.safeParse(body);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return { path: [...issue.path, issue.keys[0] ?? ''], rule: 'is not taken here' };
    if (issue.code === 'custom') return { path: issue.path, rule: issue.message };
    if (isAbsent(body, issue.path)) return { path: issue.path, rule: 'is required' };
    return { path: issue.path, rule: describe(issue) };
  });
}

/**
 * Validates a request body and maps the first problem to the API's error: not an object 213,
 * unknown field 214, missing field 300, a rule with its own code (description 420, ACL 309, …)
 * that code, anything else 215 naming the field.
 */
export function validateBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
): Validated<z.output<S>> {
  if (!isPlainObject(body))
    return validationFailure('invalidJsonBody', undefined, 'the body must be a JSON object');
  return validate(schema, body, 'unknownField', 'field');
}

/** Validates the query parameters of a request; an unknown one is 231 rather than 214. */
export function validateQuery<S extends z.ZodType>(
  schema: S,
  query: Readonly<Record<string, unknown>>,
): Validated<z.output<S>> {
  return validate(schema, query, 'unknownQueryParameter', 'query parameter');
}
