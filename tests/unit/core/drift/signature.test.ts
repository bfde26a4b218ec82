import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signed, signedPart, signedWith } from '../../../../core/drift/signature.ts';

const key = randomBytes(32);
const json = JSON.stringify({ profileId: 'prf_a', document: { secret: 'hmac-sha256:00' } });

describe('a baseline file signed', () => {
  it('is still JSON, its signature the last field, and gives its text back', () => {
    const text = signed(json, key);
    expect(Object.keys(JSON.parse(text))).toEqual(['profileId', 'document', 'hmac']);
    const part = signedPart(text);
    expect(part?.json).toBe(json);
    expect(part && signedWith(part, key)).toBe(true);
  });

  it('tells any change, and a file signed with another key', () => {
    const text = signed(json, key);
    const edited = signedPart(text.replace('prf_a', 'prf_b'));
    expect(edited && signedWith(edited, key)).toBe(false);
    const part = signedPart(text);
    expect(part && signedWith(part, randomBytes(32))).toBe(false);
  });

  it('is not signed when its last field is not a signature', () => {
    expect(signedPart(json)).toBeUndefined();
    expect(signedPart(`${json.slice(0, -1)},"hmac":"00"}`)).toBeUndefined();
    expect(signedPart(`${signed(json, key)} `)).toBeUndefined();
  });

  it('is never signed by the hash of a secret whose text is the file', () => {
    // A secret someone chose is kept as HMAC(key, secret): were that the signing key's HMAC, a
    // secret whose text is a forged baseline would sign that baseline.
    const forged = createHmac('sha256', key).update(json).digest('hex');
    expect(signed(json, key)).not.toContain(forged);
  });
});
