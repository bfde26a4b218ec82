/** The npm package has no types; this is the one function Burrow calls. */
declare module 'bcrypt-pbkdf' {
  /** OpenBSD's bcrypt_pbkdf: fills `key` (keylen bytes); returns 0, or -1 on bad arguments. */
  export function pbkdf(
    pass: Uint8Array,
    passlen: number,
    salt: Uint8Array,
    saltlen: number,
    key: Uint8Array,
    keylen: number,
    rounds: number,
  ): number;
}
