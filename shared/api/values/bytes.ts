import { z } from 'zod';
import type { ErrorName } from '../errors/errors.ts';
import { rule } from '../errors/rules.ts';

const utf8 = new TextEncoder();

/** Limits of the spec are in bytes of UTF-8, not in UTF-16 code units as `String.length` counts. */
export function utf8ByteLength(s: string): number {
  return utf8.encode(s).length;
}

export function byteLimitedString(maxBytes: number, error: ErrorName) {
  return z
    .string()
    .refine(
      (s) => utf8ByteLength(s) <= maxBytes,
      rule(error, `must be at most ${maxBytes} bytes of UTF-8`),
    )
    .meta({ description: `At most ${maxBytes} bytes of UTF-8.` });
}
