import { z } from 'zod';
import { ID_PREFIXES, isIdOf, type IdKind } from '../values/ids.ts';
import { rule } from '../errors/rules.ts';

export const LIST_LIMIT_MAX = 100;

/** Every list response: the items under a resource-specific key, the list's uri and the next page's. */
export function listEnvelope<K extends string, T extends z.ZodType>(key: K, item: T) {
  // A computed key widens to `string`; the cast restores the literal key the caller gave.
  const shape = { [key]: z.array(item), uri: z.url(), next_page_uri: z.url().nullable() } as {
    [P in K]: z.ZodArray<T>;
  } & { uri: z.ZodURL; next_page_uri: z.ZodNullable<z.ZodURL> };
  return z.looseObject(shape);
}

const LIMIT = /^[1-9][0-9]{0,2}$/;

/**
 * The query parameters of a list of `kind` resources, as strings straight from the URL.
 * Output: `limit` as a number (default 100) and `before_id`.
 */
export function listQuerySchema(kind: IdKind) {
  return z.strictObject({
    limit: z
      .string()
      .refine(
        (s) => LIMIT.test(s) && Number(s) <= LIST_LIMIT_MAX,
        rule('invalidLimit', `must be an integer from 1 to ${LIST_LIMIT_MAX}`),
      )
      .transform(Number)
      .default(LIST_LIMIT_MAX),
    before_id: z
      .string()
      .refine(
        (s) => isIdOf(kind, s),
        rule('invalidBeforeId', `must be an id starting with "${ID_PREFIXES[kind]}"`),
      )
      .optional(),
  });
}

/** What a client may ask of a list page. */
export type ListParams = Partial<z.output<ReturnType<typeof listQuerySchema>>>;
