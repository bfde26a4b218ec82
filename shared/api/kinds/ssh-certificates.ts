import { z } from 'zod';
import {
  DescribedBody,
  describedFields,
  NonEmptyString,
  resourceFields,
  StringMap,
  Timestamp,
  UtcTimestamp,
} from '../values/common.ts';
import { idSchema } from '../values/ids.ts';
import { flag } from '../errors/rules.ts';
import { SshKeyType, SshPublicKey } from '../values/ssh-keys.ts';

/** The only critical options OpenSSH defines. */
const SSH_CRITICAL_OPTIONS = ['force-command', 'source-address'] as const;

/** The service's defaults when a create body leaves them out. */
export const SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS: Readonly<Record<string, string>> = {
  'permit-pty': '',
  'permit-user-rc': '',
};
export const SSH_USER_CERTIFICATE_DEFAULT_VALIDITY_MS = 24 * 60 * 60 * 1000;
export const SSH_HOST_CERTIFICATE_DEFAULT_VALIDITY_MS = 365 * 24 * 60 * 60 * 1000;

const certificateFields = {
  public_key: z.string(),
  key_type: SshKeyType,
  ssh_certificate_authority_id: idSchema('sshCertificateAuthority'),
  principals: z.array(z.string()),
  valid_after: UtcTimestamp,
  valid_until: UtcTimestamp,
  certificate: z.string(),
};

const certificateCreateFields = {
  ...describedFields,
  ssh_certificate_authority_id: idSchema('sshCertificateAuthority'),
  public_key: SshPublicKey,
  principals: z.array(NonEmptyString).default(() => []),
  valid_after: Timestamp.optional(),
  valid_until: Timestamp.optional(),
};

function validityWindow(
  body: { valid_after?: string | undefined; valid_until?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (
    body.valid_after !== undefined &&
    body.valid_until !== undefined &&
    Date.parse(body.valid_until) <= Date.parse(body.valid_after)
  )
    flag(ctx, ['valid_until'], 'must be after "valid_after"', 'invalidValidity');
}

const CriticalOptions = StringMap.superRefine((options, ctx) => {
  for (const name of Object.keys(options))
    if (!(SSH_CRITICAL_OPTIONS as readonly string[]).includes(name))
      flag(
        ctx,
        [name],
        `is not a critical option; the only ones are ${SSH_CRITICAL_OPTIONS.map((o) => `"${o}"`).join(' and ')}`,
        'unknownCriticalOption',
      );
});

export const SSHUserCertificate = z.looseObject({
  ...resourceFields('sshUserCertificate'),
  ...certificateFields,
  critical_options: StringMap,
  extensions: StringMap,
});
export type SSHUserCertificate = z.output<typeof SSHUserCertificate>;

export const SSHUserCertificateCreate = z
  .strictObject({
    ...certificateCreateFields,
    critical_options: CriticalOptions.default(() => ({})),
    extensions: StringMap.default(() => ({ ...SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS })),
  })
  .superRefine(validityWindow);
export type SSHUserCertificateCreate = z.input<typeof SSHUserCertificateCreate>;

export const SSHUserCertificateUpdate = DescribedBody;
export type SSHUserCertificateUpdate = z.input<typeof SSHUserCertificateUpdate>;

export const SSHHostCertificate = z.looseObject({
  ...resourceFields('sshHostCertificate'),
  ...certificateFields,
});
export type SSHHostCertificate = z.output<typeof SSHHostCertificate>;

export const SSHHostCertificateCreate = z
  .strictObject(certificateCreateFields)
  .superRefine(validityWindow);
export type SSHHostCertificateCreate = z.input<typeof SSHHostCertificateCreate>;

export const SSHHostCertificateUpdate = DescribedBody;
export type SSHHostCertificateUpdate = z.input<typeof SSHHostCertificateUpdate>;
