import { z } from 'zod';
import { DescribedBody, describedFields, resourceFields } from '../values/common.ts';
import { flag } from '../errors/rules.ts';
import { SshKeyType } from '../values/ssh-keys.ts';

export const ELLIPTIC_CURVES = ['p256', 'p384', 'p521'] as const;
export const RSA_KEY_SIZES = [2048, 4096] as const;

/** What the service generates when the create body leaves a choice open. */
const SSH_CA_KEY_DEFAULTS = {
  private_key_type: 'ed25519',
  elliptic_curve: 'p384',
  key_size: 4096,
} as const;

export const SSHCertificateAuthority = z.looseObject({
  ...resourceFields('sshCertificateAuthority'),
  public_key: z.string(),
  key_type: SshKeyType,
});
export type SSHCertificateAuthority = z.output<typeof SSHCertificateAuthority>;

/**
 * `elliptic_curve` only means something for ecdsa and `key_size` only for rsa; giving either
 * with another key type is refused rather than silently ignored. Defaults: see SSH_CA_KEY_DEFAULTS.
 */
export const SSHCertificateAuthorityCreate = z
  .strictObject({
    ...describedFields,
    private_key_type: SshKeyType.optional(),
    elliptic_curve: z.enum(ELLIPTIC_CURVES).optional(),
    key_size: z.literal(RSA_KEY_SIZES).optional(),
  })
  .superRefine((body, ctx) => {
    const type = body.private_key_type ?? SSH_CA_KEY_DEFAULTS.private_key_type;
    if (body.elliptic_curve !== undefined && type !== 'ecdsa')
      flag(ctx, ['elliptic_curve'], 'is only allowed when "private_key_type" is "ecdsa"');
    if (body.key_size !== undefined && type !== 'rsa')
      flag(ctx, ['key_size'], 'is only allowed when "private_key_type" is "rsa"');
  });
export type SSHCertificateAuthorityCreate = z.input<typeof SSHCertificateAuthorityCreate>;

export type SshKeySpec =
  | { readonly type: 'rsa'; readonly bits: (typeof RSA_KEY_SIZES)[number] }
  | { readonly type: 'ecdsa'; readonly curve: (typeof ELLIPTIC_CURVES)[number] }
  | { readonly type: 'ed25519' };

/** The key to generate for a validated create body, defaults filled in. */
export function sshKeySpec(body: z.output<typeof SSHCertificateAuthorityCreate>): SshKeySpec {
  switch (body.private_key_type ?? SSH_CA_KEY_DEFAULTS.private_key_type) {
    case 'rsa':
      return { type: 'rsa', bits: body.key_size ?? SSH_CA_KEY_DEFAULTS.key_size };
    case 'ecdsa':
      return { type: 'ecdsa', curve: body.elliptic_curve ?? SSH_CA_KEY_DEFAULTS.elliptic_curve };
    case 'ed25519':
      return { type: 'ed25519' };
  }
}

export const SSHCertificateAuthorityUpdate = DescribedBody;
export type SSHCertificateAuthorityUpdate = z.input<typeof SSHCertificateAuthorityUpdate>;
