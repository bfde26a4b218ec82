import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import { parseSshPublicKey } from '../ssh/keys.ts';
import { newSecret } from '../store/ids.ts';
import type { CredentialRecord, SSHCredentialRecord } from '../store/records.ts';
import { sha256Hex } from '../store/store.ts';
import type { Ctx } from './context.ts';
import { crud } from './crud.ts';
import { withPublicKey } from './public-keys.ts';
import { describedFields } from './render.ts';

/**
 * The owner of a new credential: the caller unless the body names another, which only an admin
 * may (304), and which must be a user or bot of the account (223).
 */
function ownerFor(ctx: Ctx<{ owner_id?: string | undefined }>): string {
  const requested = ctx.body.owner_id;
  if (requested === undefined || requested === ctx.user.id) return ctx.user.id;
  if (!ctx.user.admin)
    throw new SandboxApiError(
      'ownerNotAllowed',
      'only admins may assign a credential to another owner',
      {
        field: 'owner_id',
      },
    );
  if (!ctx.account.hasOwner(requested))
    throw new SandboxApiError(
      'invalidReference',
      `"owner_id" is no user or bot of this account: "${requested}"`,
      {
        field: 'owner_id',
      },
    );
  return requested;
}

function renderCredentialFields(record: SSHCredentialRecord | CredentialRecord) {
  return { acl: record.acl, owner_id: record.owner_id };
}

export const sshCredentialHandlers = crud<
  'sshCredential',
  ParsedBodyOf<'sshCredentials.create'>,
  ParsedBodyOf<'sshCredentials.update'>
>({
  group: 'sshCredentials',
  kind: 'sshCredential',
  create: (ctx, fields) => ({
    ...fields,
    public_key: withPublicKey(() => {
      parseSshPublicKey(ctx.body.public_key);
      return ctx.body.public_key.trim();
    }),
    acl: ctx.body.acl ?? [],
    owner_id: ownerFor(ctx),
  }),
  render: (record, base) => ({
    ...describedFields(record, base),
    ...renderCredentialFields(record),
    public_key: record.public_key,
  }),
  // Like a tunnel credential's: deleting it ends the SSH gateway sessions it started.
  afterDelete: (record, ctx) =>
    ctx.services.store.sessions.disconnectCredential(
      ctx.account.name,
      record.id,
      `credential ${record.id} was deleted`,
    ),
});

export const credentialHandlers = crud<
  'credential',
  ParsedBodyOf<'credentials.create'>,
  ParsedBodyOf<'credentials.update'>
>({
  group: 'credentials',
  kind: 'credential',
  create: (ctx, fields) => {
    const owner = ownerFor(ctx);
    const token = newSecret();
    const record: CredentialRecord = {
      ...fields,
      acl: ctx.body.acl ?? [],
      owner_id: owner,
      token_hash: sha256Hex(token),
    };
    return { record, shownOnce: { token } };
  },
  render: (record, base) => ({
    ...describedFields(record, base),
    ...renderCredentialFields(record),
    token: null,
  }),
  afterDelete: (record, ctx) => {
    // A deleted credential revokes the sessions it started, not only future ones.
    ctx.services.store.sessions.disconnectCredential(
      ctx.account.name,
      record.id,
      `credential ${record.id} was deleted`,
    );
  },
});
