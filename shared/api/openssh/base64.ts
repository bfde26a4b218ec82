/** Base64 without Buffer, for code that also runs in the browser. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The bytes of standard base64 text, or undefined when it is not base64. */
export function decodeBase64(encoded: string): Uint8Array | undefined {
  if (!BASE64.test(encoded)) return undefined;
  try {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The bytes of base64url text (as JWK fields hold them); empty for undefined. */
export function decodeBase64Url(encoded: string | undefined): Uint8Array {
  const standard = (encoded ?? '').replace(/-/g, '+').replace(/_/g, '/');
  return decodeBase64(standard.padEnd(Math.ceil(standard.length / 4) * 4, '=')) ?? new Uint8Array();
}

export function encodeBase64(bytes: Uint8Array): string {
  // In chunks: one String.fromCharCode(...bytes) call could overflow the stack on a large blob.
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
