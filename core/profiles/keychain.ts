import { randomBytes } from 'node:crypto';
import type { KeychainStatus } from '../../shared/app/ipc/profiles.ts';

/** Where API keys live: the OS keychain in the app, one entry per profile id. */
export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

const KEYCHAIN_SERVICE = 'burrow';

/** The OS keychain through @napi-rs/keyring's keytar-compatible module. */
export async function osKeychain(service = KEYCHAIN_SERVICE): Promise<SecretStore> {
  const keytar = await import('@napi-rs/keyring/keytar.js');
  return {
    get: (account) => keytar.getPassword(service, account),
    set: (account, secret) => keytar.setPassword(service, account, secret),
    delete: (account) => keytar.deletePassword(service, account),
  };
}

/**
 * Whether keys can be kept. A read alone proves nothing: with no Secret Service, reading answers
 * "no such entry" as if all were well. So a throwaway secret is written, read back and removed,
 * under an entry of this probe's own: processes probing at once (commands started together)
 * would otherwise read each other's and take the keychain for broken.
 */
export async function probeKeychain(store: SecretStore): Promise<KeychainStatus> {
  const secret = randomBytes(16).toString('hex');
  const account = `burrow-probe-${secret.slice(0, 12)}`;
  try {
    await store.set(account, secret);
    const read = await store.get(account);
    await store.delete(account);
    if (read === secret) return { available: true };
    return unavailable('the keychain did not give back what was stored');
  } catch (error) {
    return unavailable(error instanceof Error ? error.message : String(error));
  }
}

function unavailable(reason: string): KeychainStatus {
  return {
    available: false,
    message:
      'No keychain is available, so Burrow cannot keep API keys: it stores them only in the ' +
      'system keychain (the Secret Service on Linux: GNOME Keyring or KWallet), never in a ' +
      `file. Start or unlock one, then try again. (${reason})`,
  };
}
