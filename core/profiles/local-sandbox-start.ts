import type { RateLimit } from '../api/governor.ts';

/** A running embedded sandbox, as core needs it. */
export interface RunningSandbox {
  readonly url: string;
  /**
   * The limit it enforces when started with another than the service's (`npm run web --
   * --sandbox-rate-limit`): the Local profile's governor keeps to it instead, or it would
   * still make every caller wait at 120 a minute for a sandbox that would have answered.
   */
  readonly rateLimit?: RateLimit;
  /** Another process's: it accepts the key that process kept in the keychain. */
  readonly joined?: boolean;
  close(): Promise<void>;
}

/**
 * Starts the embedded sandbox. The shell (electron/ or web/) provides it, since core never
 * imports sandbox/; core decides when it runs.
 */
export type StartLocalSandbox = (options: {
  /** A folder of the app's data folder for the sandbox's data file; it survives restarts. */
  readonly dataDir: string;
  readonly apiKey: string;
  /** With which it proves to be the sandbox its record names (shared/api/catalog/owner-proof.ts). */
  readonly ownerSecret: string;
}) => Promise<RunningSandbox>;
