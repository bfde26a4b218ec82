import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, type IdKind } from '../../shared/api/values/ids.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// The largest multiple of 62 that fits a byte: bytes at or above it are dropped, so that every
// character is equally likely (a plain `% 62` would favour the first few).
const UNBIASED_LIMIT = 248;

/** `length` characters of base62 from the CSPRNG. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Same length as the ids of the platform the spec describes (a KSUID's 27 characters). */
const ID_SUFFIX_LENGTH = 27;

export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + randomBase62(ID_SUFFIX_LENGTH);
}

/** Secrets handed out once: API keys and tunnel credential tokens. */
export function newSecret(): string {
  return randomBase62(48);
}
