/**
 * What the SSH service takes, as zod schemas: the service validates with them, and the IPC
 * contract can check the renderer's arguments with the very same ones. Messages follow the field
 * name and are meant for people.
 */
import { z } from 'zod';
import { Description, Timestamp } from '../../api/values/common.ts';
import { idSchema } from '../../api/values/ids.ts';
import { ELLIPTIC_CURVES } from '../../api/kinds/ssh-certificate-authorities.ts';
import { SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS } from '../../api/kinds/ssh-certificates.ts';
import { SshPublicKey } from '../../api/values/ssh-keys.ts';
import { ProfileId } from '../ipc/profiles.ts';

/** Key sizes Burrow generates for people's own keys: RSA under 3072 bits is no longer advised. */
export const USER_RSA_KEY_SIZES = [3072, 4096] as const;

export const NewKeySpec = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ed25519') }),
  z.strictObject({ type: z.literal('ecdsa'), curve: z.enum(ELLIPTIC_CURVES).default('p256') }),
  z.strictObject({ type: z.literal('rsa'), bits: z.literal(USER_RSA_KEY_SIZES).default(4096) }),
]);
export type NewKeySpec = z.output<typeof NewKeySpec>;

const HOUR = 3600;
/** Validity lengths a person picks from, in seconds. */
export const VALIDITY_PRESETS = {
  '1h': HOUR,
  '8h': 8 * HOUR,
  '1d': 24 * HOUR,
  '7d': 7 * 24 * HOUR,
  '30d': 30 * 24 * HOUR,
  '90d': 90 * 24 * HOUR,
  '1y': 365 * 24 * HOUR,
} as const;
export type ValidityPreset = keyof typeof VALIDITY_PRESETS;
/** The spec's defaults: a day for user certificates, a year for host certificates. */
export const DEFAULT_VALIDITY: Readonly<Record<'user' | 'host', ValidityPreset>> = {
  user: '1d',
  host: '1y',
};
const MAX_VALIDITY_SECONDS = 10 * 365 * 24 * HOUR;

/** A preset length, a custom length, or a custom window; lengths start when the key is signed. */
export const Validity = z.union([
  z.strictObject({ preset: z.enum(Object.keys(VALIDITY_PRESETS) as [ValidityPreset]) }),
  z.strictObject({ seconds: z.int().min(60).max(MAX_VALIDITY_SECONDS) }),
  z
    .strictObject({ validAfter: Timestamp, validUntil: Timestamp })
    .refine((w) => Date.parse(w.validUntil) > Date.parse(w.validAfter), {
      message: 'must end after it starts',
      path: ['validUntil'],
    }),
]);
export type Validity = z.output<typeof Validity>;

/** One principal: a user name or a host name, as sshd compares it (ssh-keygen -n splits on commas). */
const Principal = z
  .string()
  .min(1, 'must not be empty')
  .max(255)
  .regex(/^[^\s,]+$/, 'must not contain spaces or commas');

const CriticalOptions = z.strictObject({
  'force-command': z.string().min(1, 'must be a command, not empty').optional(),
  'source-address': z
    .string()
    .regex(
      /^[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*$/,
      'must be a comma-separated list of addresses or CIDR blocks, such as "192.0.2.0/24,2001:db8::1"',
    )
    .optional(),
});

/** Extension names are OpenSSH's flags or `name@domain`; values are empty for the flags. */
const Extensions = z.record(
  z.string().regex(/^[\x21-\x7e]+$/, 'must be a printable name without spaces'),
  z.string(),
);

export const SigningOptions = z
  .strictObject({
    caId: idSchema('sshCertificateAuthority'),
    kind: z.enum(['user', 'host']).default('user'),
    principals: z
      .array(Principal)
      .max(256)
      .default(() => []),
    /** Default: DEFAULT_VALIDITY of the kind. */
    validity: Validity.optional(),
    /** User certificates only. */
    criticalOptions: CriticalOptions.default(() => ({})),
    /** User certificates only; default the spec's (permit-pty, permit-user-rc). */
    extensions: Extensions.default(() => ({ ...SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS })),
    description: Description.optional(),
  })
  .superRefine((o, ctx) => {
    if (o.kind !== 'host') return;
    if (Object.keys(o.criticalOptions).length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['criticalOptions'],
        message: 'apply to user certificates only',
      });
  });
export type SigningOptions = z.output<typeof SigningOptions>;

/**
 * A file name for the key: it becomes NAME, NAME.pub and NAME-cert.pub inside the chosen folder,
 * so it may not lead anywhere else.
 */
export const KeyFileName = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((s) => !/[/\\]/.test(s), 'must be a plain file name, without "/" or "\\"')
  .refine((s) => s !== '.' && !s.includes('..'), 'must not be "." or contain ".."')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\x00-\x1f\x7f]/.test(s), 'must not contain control characters')
  .refine((s) => !s.startsWith('-'), 'must not start with "-" (ssh would read it as an option)')
  .refine((s) => !s.endsWith('.pub'), 'must not end in ".pub": that name is for the public key');

/**
 * An absolute path, on POSIX or Windows: the window cannot tell which system it talks to. Core
 * refuses one that is not absolute on the system it runs on (`C:\…` on Linux), naming the field.
 */
const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(s), 'must be an absolute path')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\x00-\x1f]/.test(s), 'must not contain control characters');

const SaveTarget = z.strictObject({
  /** Default ~/.ssh, created (0700) when missing. */
  folder: AbsolutePath.optional(),
  name: KeyFileName,
  /** Replace files that exist; without it, existing files are never touched. */
  overwrite: z.boolean().default(false),
});
export type SaveTarget = z.output<typeof SaveTarget>;

const Comment = z
  .string()
  .max(1024)
  .regex(/^[^\r\n]*$/, 'must be one line');

export const GenerateRequest = z.strictObject({
  key: NewKeySpec.default({ type: 'ed25519' }),
  /** The public key's comment; default NAME. */
  comment: Comment.optional(),
  /** Empty or missing: the private key is not encrypted. */
  passphrase: z.string().max(1024).default(''),
  target: SaveTarget,
  certificate: SigningOptions,
  /** Whose CA signs: default the active profile's (the window's); a command names its own. */
  profileId: ProfileId.optional(),
});
export type GenerateRequest = z.input<typeof GenerateRequest>;

export const SignExistingRequest = z.strictObject({
  /** A public key file (`.pub`); the certificate is saved beside it as `…-cert.pub`. */
  publicKeyPath: AbsolutePath,
  overwrite: z.boolean().default(false),
  certificate: SigningOptions,
  /** As in GenerateRequest. */
  profileId: ProfileId.optional(),
});
export type SignExistingRequest = z.input<typeof SignExistingRequest>;

export const DecodeRequest = z.union([
  z.strictObject({ path: AbsolutePath }),
  z.strictObject({ text: z.string().max(64 * 1024) }),
]);
export type DecodeRequest = z.input<typeof DecodeRequest>;

export const TargetQuery = SaveTarget.pick({ folder: true, name: true });
export type TargetQuery = z.input<typeof TargetQuery>;

export const AgentRequest = z.strictObject({
  savedId: z.string().min(1),
  passphrase: z.string().max(1024).default(''),
  /** The agent's socket; default SSH_AUTH_SOCK of the app's environment. */
  socket: z.string().min(1).optional(),
});
export type AgentRequest = z.input<typeof AgentRequest>;

/** A word of ssh_config: no spaces, quotes, comment signs or patterns. */
const ConfigWord = z
  .string()
  .min(1, 'must not be empty')
  .max(255)
  .regex(/^[A-Za-z0-9._:@[\]-]+$/, 'may only contain letters, digits and . _ : @ [ ] -');

export const ConfigBlockRequest = z.strictObject({
  savedId: z.string().min(1),
  /** The name after `Host`, what the person types: `ssh ALIAS`. */
  hostAlias: ConfigWord,
  hostName: ConfigWord,
  user: ConfigWord.optional(),
  port: z.int().min(1).max(65535).optional(),
});
export type ConfigBlockRequest = z.input<typeof ConfigBlockRequest>;

export const CommandRequest = z.strictObject({
  savedId: z.string().min(1),
  host: ConfigWord,
  user: ConfigWord.optional(),
  port: z.int().min(1).max(65535).optional(),
});
export type CommandRequest = z.input<typeof CommandRequest>;

export const TrustRequest = z.union([
  z.strictObject({ caId: idSchema('sshCertificateAuthority') }),
  z.strictObject({ publicKey: SshPublicKey }),
]);
export type TrustRequest = z.input<typeof TrustRequest>;
