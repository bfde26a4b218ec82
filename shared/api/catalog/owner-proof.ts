/**
 * How a Local sandbox proves it is the one its record names, before anyone sends it the key: the
 * process that starts it gives it a random secret and writes the same secret into the record
 * (readable by the user only); a process that finds the record sends a random challenge to
 * OWNER_PROOF_PATH and expects `{ "proof": ownerProof(secret, challenge) }` back. Whatever else
 * listens on the recorded port (the sandbox gone, the port reused) cannot answer it.
 */
export const OWNER_PROOF_PATH = '/.burrow/owner';

/** A challenge or a secret: 32 random bytes, as 64 lowercase hex digits. */
export const OWNER_TOKEN = /^[0-9a-f]{64}$/;

/** HMAC-SHA-256 of the challenge under the secret, as hex (Web Crypto: core's and the sandbox's). */
export async function ownerProof(secret: string, challenge: string): Promise<string> {
  const encode = (text: string) => new TextEncoder().encode(text);
  const key = await crypto.subtle.importKey(
    'raw',
    encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encode(challenge)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
