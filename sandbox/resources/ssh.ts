import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { sshKeySpec } from '../../shared/api/kinds/ssh-certificate-authorities.ts';
import {
  SSH_HOST_CERTIFICATE_DEFAULT_VALIDITY_MS,
  SSH_USER_CERTIFICATE_DEFAULT_VALIDITY_MS,
} from '../../shared/api/kinds/ssh-certificates.ts';
import { sshPublicKeyType } from '../../shared/api/values/ssh-keys.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import { certificateSerial, certificateTime } from '../ssh/certificate.ts';
import { criticalOptionProblem } from '../ssh/options.ts';
import type { Account } from '../store/account.ts';
import type {
  Described,
  SSHHostCertificateRecord,
  SSHUserCertificateRecord,
} from '../store/records.ts';
import type { Ctx } from './context.ts';
import { withPublicKey } from './public-keys.ts';
import { crud } from './crud.ts';
import { refuseDeleteWhileReferenced, requireReference } from './references.ts';
import { describedFields, storedFields } from './render.ts';

export const sshCertificateAuthorityHandlers = crud<
  'sshCertificateAuthority',
  ParsedBodyOf<'sshCertificateAuthorities.create'>,
  ParsedBodyOf<'sshCertificateAuthorities.update'>
>({
  group: 'sshCertificateAuthorities',
  kind: 'sshCertificateAuthority',
  create: async (ctx, fields) => {
    const key = await ctx.services.ssh.generate(sshKeySpec(ctx.body), fields.id);
    return {
      ...fields,
      key_type: key.keyType,
      public_key: key.publicKey,
      private_key: key.privateKeyPem,
    };
  },
  render: (record, base) => ({
    ...describedFields(record, base),
    ...storedFields(record, ['public_key', 'key_type']),
  }),
  checkDelete: refuseDeleteWhileReferenced,
});

type CertificateBody =
  | ParsedBodyOf<'sshUserCertificates.create'>
  | ParsedBodyOf<'sshHostCertificates.create'>;

/** Times as the server writes them; the body may give any offset. */
const utc = (d: Date) => d.toISOString();

/**
 * The validity window as the certificate will hold it (whole seconds, see certificateTime).
 * A window that is already over is allowed: expired certificates are what tests of refusal need,
 * and `ssh-keygen -V` signs them too.
 */
function validity(kind: 'user' | 'host', body: CertificateBody): { after: Date; until: Date } {
  const after = certificateTime(
    body.valid_after !== undefined ? new Date(body.valid_after) : new Date(),
  );
  const defaultValidity =
    kind === 'user'
      ? SSH_USER_CERTIFICATE_DEFAULT_VALIDITY_MS
      : SSH_HOST_CERTIFICATE_DEFAULT_VALIDITY_MS;
  const until = certificateTime(
    body.valid_until !== undefined
      ? new Date(body.valid_until)
      : new Date(after.getTime() + defaultValidity),
  );
  // Also after rounding down to seconds: a window that rounds to nothing is never valid.
  if (until.getTime() <= after.getTime())
    throw new SandboxApiError(
      'invalidValidity',
      '"valid_until" must be at least a second after "valid_after"',
      { field: 'valid_until' },
    );
  return { after, until };
}

function checkCriticalOptions(options: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(options)) {
    const problem = criticalOptionProblem(name, value);
    const field = `critical_options.${name}`;
    if (problem) throw new SandboxApiError('invalidValue', `"${field}" ${problem}`, { field });
  }
}

/** The fields user and host certificates share, signed by the CA the body names (223 if none). */
function certify(
  kind: 'user' | 'host',
  ctx: Ctx<CertificateBody>,
  fields: Described,
  options: {
    critical: Readonly<Record<string, string>>;
    extensions: Readonly<Record<string, string>>;
  },
) {
  const { body, account } = ctx;
  requireReference(account, body.ssh_certificate_authority_id, 'ssh_certificate_authority_id');
  const ca = caOf(account, body.ssh_certificate_authority_id);
  const { after, until } = validity(kind, body);
  checkCriticalOptions(options.critical);
  const certificate = withPublicKey(() =>
    ctx.services.ssh.sign(ca.private_key, {
      kind,
      publicKey: body.public_key,
      keyId: fields.id,
      serial: certificateSerial(fields.id),
      principals: body.principals,
      validAfter: after,
      validBefore: until,
      criticalOptions: options.critical,
      extensions: options.extensions,
    }),
  );
  return {
    ...fields,
    public_key: body.public_key.trim(),
    // The schema accepted the key, so it has a type.
    key_type: sshPublicKeyType(body.public_key) ?? 'ed25519',
    ssh_certificate_authority_id: ca.id,
    principals: body.principals,
    valid_after: utc(after),
    valid_until: utc(until),
    certificate,
  };
}

function caOf(account: Account, id: string) {
  const ca = account.collections.sshCertificateAuthority.get(id);
  if (!ca)
    throw new SandboxApiError(
      'invalidReference',
      `refers to no SSH certificate authority: "${id}"`,
    );
  return ca;
}

/** What user and host certificates both carry, as stored. */
const CERTIFICATE_FIELDS = [
  'public_key',
  'key_type',
  'ssh_certificate_authority_id',
  'principals',
  'valid_after',
  'valid_until',
  'certificate',
] as const;

function renderCertificate(record: SSHHostCertificateRecord, base: string) {
  return { ...describedFields(record, base), ...storedFields(record, CERTIFICATE_FIELDS) };
}

export const sshUserCertificateHandlers = crud<
  'sshUserCertificate',
  ParsedBodyOf<'sshUserCertificates.create'>,
  ParsedBodyOf<'sshUserCertificates.update'>
>({
  group: 'sshUserCertificates',
  kind: 'sshUserCertificate',
  create: (ctx, fields): SSHUserCertificateRecord => ({
    ...certify('user', ctx, fields, {
      critical: ctx.body.critical_options,
      extensions: ctx.body.extensions,
    }),
    critical_options: ctx.body.critical_options,
    extensions: ctx.body.extensions,
  }),
  render: (record, base) => ({
    ...renderCertificate(record, base),
    critical_options: record.critical_options,
    extensions: record.extensions,
  }),
});

export const sshHostCertificateHandlers = crud<
  'sshHostCertificate',
  ParsedBodyOf<'sshHostCertificates.create'>,
  ParsedBodyOf<'sshHostCertificates.update'>
>({
  group: 'sshHostCertificates',
  kind: 'sshHostCertificate',
  create: (ctx, fields) => certify('host', ctx, fields, { critical: {}, extensions: {} }),
  render: renderCertificate,
});
