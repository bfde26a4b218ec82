/**
 * What the SSH service answers: plain JSON data (it crosses IPC), with every message ready to
 * show. The saved-certificate record is a schema too, because it is read back from a store.
 */
import { z } from 'zod';
import type { SshKeyType } from '../../api/values/ssh-keys.ts';

/** A certificate as `ssh-keygen -L` describes it. */
export type CertificateInfo = {
  /** `ssh-ed25519-cert-v01@openssh.com`, … */
  readonly certType: string;
  readonly kind: 'user' | 'host';
  readonly keyType: SshKeyType;
  /** The certified key as an authorized_keys line, and its fingerprint (`SHA256:…`). */
  readonly publicKey: string;
  readonly keyFingerprint: string;
  readonly keyId: string;
  /** Decimal: serials are 64-bit. */
  readonly serial: string;
  /** Empty means any user (or host). */
  readonly principals: readonly string[];
  /** RFC 3339 UTC; null for "always" (validAfter) and "forever" (validBefore). */
  readonly validAfter: string | null;
  readonly validBefore: string | null;
  readonly criticalOptions: Readonly<Record<string, string>>;
  readonly extensions: Readonly<Record<string, string>>;
  /** The signing CA's key fingerprint as ssh-keygen prints it, and its signature algorithm. */
  readonly caFingerprint: string;
  readonly signatureAlgorithm: string;
};

export const SavedCertificate = z.object({
  /** Burrow's own id for the record; stays the same across renewals. */
  id: z.string(),
  kind: z.enum(['user', 'host']),
  caId: z.string(),
  /** The profile whose CA signed it, so that renewing asks the same account; absent for a fixed client. */
  profileId: z.string().optional(),
  /** The API's id of the current certificate; changes with each renewal. */
  certificateId: z.string(),
  publicKey: z.string(),
  principals: z.array(z.string()),
  criticalOptions: z.record(z.string(), z.string()),
  extensions: z.record(z.string(), z.string()),
  description: z.string().optional(),
  validAfter: z.string(),
  validUntil: z.string(),
  /** null when Burrow did not write the private key (a signed existing key with no sibling). */
  privateKeyPath: z.string().nullable(),
  publicKeyPath: z.string(),
  certificatePath: z.string(),
  /** Remind this long before expiry instead of at two thirds of the lifetime. */
  leadTimeSeconds: z.number().int().positive().nullable(),
  savedAt: z.string(),
  renewedAt: z.string().nullable(),
});
export type SavedCertificate = z.output<typeof SavedCertificate>;

export type FileRole = 'private-key' | 'public-key' | 'certificate' | 'ssh-config';
export type SavedFile = { readonly path: string; readonly role: FileRole; readonly mode: number };

export type SshCommand = {
  readonly argv: readonly string[];
  /** The same, quoted for a POSIX shell, ready to copy. */
  readonly text: string;
};

export type SignResult = {
  readonly saved: SavedCertificate;
  readonly certificate: CertificateInfo;
  readonly files: readonly SavedFile[];
  /** Plain-language cautions, such as a certificate valid for any user. */
  readonly warnings: readonly string[];
  /** null when there is no private key to name. */
  readonly sshCommand: SshCommand | null;
};

export const GenerateStep = z.enum(['generating', 'signing', 'saving']);
export type GenerateStep = z.output<typeof GenerateStep>;
export type GenerateProgress = { readonly step: GenerateStep; readonly message: string };

export type ExistingFiles = {
  readonly folder: string;
  readonly files: readonly {
    readonly path: string;
    readonly role: FileRole;
    readonly exists: boolean;
  }[];
};

/** A certificate whose renewal is due, for the notification policy. */
export type RenewalDue = {
  readonly savedId: string;
  /** The same for every event of one validity window, so that one window gives one notification. */
  readonly key: string;
  readonly reason: 'two-thirds' | 'lead-time';
  readonly dueAt: string;
  readonly validUntil: string;
  readonly expired: boolean;
  readonly message: string;
};

export type AgentResult = {
  readonly lifetimeSeconds: number;
  /** False when the agent took the key but not the certificate. */
  readonly certificateHeld: boolean;
  readonly message: string;
};

export type ConfigBlock = {
  readonly path: string;
  readonly text: string;
  /** The line to put at the top of ~/.ssh/config, which Burrow never edits. */
  readonly includeLine: string;
};

export type TrustLines = {
  readonly publicKey: string;
  /** The line for a TrustedUserCAKeys file, and the sshd_config line naming that file. */
  readonly trustedUserCaKeysLine: string;
  readonly sshdConfigLine: string;
  /** `@cert-authority * <key>` for known_hosts. */
  readonly knownHostsLine: string;
};

/** An SSH certificate authority as a command finds it by description. */
export type CertificateAuthorityName = { readonly id: string; readonly description: string };
