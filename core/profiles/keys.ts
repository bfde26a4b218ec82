import { randomBytes } from 'node:crypto';
import type { KeychainStatus, Profile } from '../../shared/app/ipc/profiles.ts';
import { AppError } from '../errors.ts';
import { probeKeychain, type SecretStore } from './keychain.ts';

/**
 * The profiles' API keys: in the keychain under the profile's id and nowhere else, read by core
 * alone, once per run.
 */
export class ProfileKeys {
  status: KeychainStatus = { available: false, message: 'Checking the keychain…' };
  /**
   * Keys read this run, as promises so that two calls racing for a key (the Local sandbox's start
   * and the first window's first call) share one read, or one generated key. Without a keychain
   * the Local sandbox's key lives only here.
   */
  private readonly keys = new Map<string, Promise<string>>();

  constructor(private readonly secrets: SecretStore) {}

  async probe(): Promise<void> {
    this.status = await probeKeychain(this.secrets);
  }

  /** Refuses unless a keychain answers (probed again: it may have been unlocked since). */
  async require(): Promise<void> {
    if (!this.status.available) await this.probe();
    if (!this.status.available)
      throw new AppError('PROFILE_NO_KEYCHAIN', this.status.message ?? 'No keychain', 'apiKey');
  }

  async set(id: string, apiKey: string): Promise<void> {
    await this.secrets.set(id, apiKey);
    this.keys.set(id, Promise.resolve(apiKey));
  }

  async delete(id: string): Promise<void> {
    if (this.status.available) await this.secrets.delete(id);
    this.keys.delete(id);
  }

  /**
   * The key the Local sandbox this process has just started (with `started`) must accept, asked
   * once it has the data file: processes racing on a first run each made a key, and only the one
   * that holds the data file writes it, or finds another's already there (then its sandbox
   * starts again with that one, the key whoever joins it reads).
   */
  async claim(profile: Profile, started: string): Promise<string> {
    const stored = this.status.available ? await this.secrets.get(profile.id) : null;
    if (stored === null && this.status.available) await this.secrets.set(profile.id, started);
    const key = stored ?? started;
    this.keys.set(profile.id, Promise.resolve(key));
    return key;
  }

  /** The key of a Local sandbox that another process runs: the one it claimed, read again. */
  shared(profile: Profile): Promise<string> {
    this.keys.delete(profile.id);
    return this.of(profile);
  }

  of(profile: Profile): Promise<string> {
    let key = this.keys.get(profile.id);
    if (!key) {
      key = this.read(profile);
      this.keys.set(profile.id, key);
      // A failed read is tried again next time (the keychain may have been unlocked since).
      key.catch(() => this.keys.delete(profile.id));
    }
    return key;
  }

  private async read(profile: Profile): Promise<string> {
    const stored = this.status.available ? await this.secrets.get(profile.id) : null;
    if (stored) return stored;
    if (profile.kind === 'remote') {
      throw new AppError(
        'PROFILE_KEY_MISSING',
        this.status.available
          ? `The API key of "${profile.name}" is not in the keychain any more: enter it again in Settings`
          : (this.status.message ?? 'No keychain is available'),
      );
    }
    // The Local sandbox accepts whatever key it is started with; without a keychain its key
    // lives in memory for this run only, and its data (kept per account) is the same next run.
    // Written to the keychain only by the process that starts the sandbox with it (`claim`).
    return randomBytes(32).toString('base64url');
  }
}
