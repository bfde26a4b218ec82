import ssh2 from 'ssh2';
import { authorizedKeyFields } from '../ssh/keys.ts';
import type { Account } from '../store/account.ts';
import type { SSHCredentialRecord } from '../store/records.ts';

export type KeyHolder = { readonly account: Account; readonly credential: SSHCredentialRecord };

export type KeyLookup =
  | { readonly found: true; readonly holder: KeyHolder }
  | { readonly found: false; readonly reason: 'unknown' | 'ambiguous' };

/**
 * The SSH credential whose public key is `blob` (the SSH wire form, type included). A scan, not an
 * index: it runs once per connection and costs one buffer compare per SSH credential, and it can
 * never disagree with the store after creates, deletes or a data-file load.
 *
 * A public key is public, so anyone may register someone else's. Within one account the oldest
 * credential wins; a key registered in two accounts is refused, so that no account can pull
 * another's agent into itself (it can only lock it out, which the key's owner notices).
 */
export function credentialForKey(accounts: Iterable<Account>, blob: Buffer): KeyLookup {
  let holder: KeyHolder | undefined;
  for (const account of accounts) {
    for (const credential of account.collections.sshCredential.values()) {
      if (!authorizedKeyFields(credential.public_key).blob.equals(blob)) continue;
      if (!holder) holder = { account, credential };
      else if (holder.account !== account) return { found: false, reason: 'ambiguous' };
      // values() is oldest first, so the first match of the account is its oldest.
      break;
    }
  }
  return holder ? { found: true, holder } : { found: false, reason: 'unknown' };
}

/** Whether `signature` over `data` was made by the private half of the credential's key. */
export function verifyKeySignature(
  publicKey: string,
  data: Buffer,
  signature: Buffer,
  hashAlgo: string | undefined,
): boolean {
  const key = ssh2.utils.parseKey(publicKey);
  return !(key instanceof Error) && key.verify(data, signature, hashAlgo) === true;
}
