import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/*
 * A baseline file is signed by the Burrow that wrote it: its last field is an HMAC-SHA256 of the
 * text before it, so that a file edited by hand, by a script or by a copy from elsewhere is not
 * taken for Burrow's own (its Put back would apply whatever the file says, a secret included).
 */

/** The last field of a signed object's JSON text, and where it starts. */
const SIGNATURE = /,"hmac":"([0-9a-f]{64})"\}\n?$/;

/**
 * The signing key, derived (HKDF) from the key secrets are hashed with, never that key itself:
 * a baseline holds HMACs of secrets someone else may choose, and one of those must never be the
 * signature of a file whose text is that secret.
 */
function signingKey(key: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', key, 'burrow drift', 'baseline file signature', 32));
}

const macOf = (json: string, key: Buffer): Buffer =>
  createHmac('sha256', signingKey(key)).update(json).digest();

/** `json` (an object's JSON text) with its signature as its last field. */
export function signed(json: string, key: Buffer): string {
  if (!json.endsWith('}')) throw new Error('Only an object is signed');
  return `${json.slice(0, -1)},"hmac":"${macOf(json, key).toString('hex')}"}\n`;
}

/** The JSON text a signed file holds, with the signature it carries; undefined when unsigned. */
export function signedPart(text: string): { json: string; signature: Buffer } | undefined {
  const match = SIGNATURE.exec(text);
  if (!match?.[1]) return undefined;
  return { json: `${text.slice(0, match.index)}}`, signature: Buffer.from(match[1], 'hex') };
}

/** Whether `key` signed that text. */
export function signedWith({ json, signature }: { json: string; signature: Buffer }, key: Buffer) {
  return timingSafeEqual(macOf(json, key), signature);
}
