import { z } from 'zod';
import { Acl } from '../values/acl.ts';
import { describedFields, resourceFields } from '../values/common.ts';
import { idSchema } from '../values/ids.ts';
import { SshPublicKey } from '../values/ssh-keys.ts';

/** Credentials belong to a User or a Bot; owner_id is given on create only, so updates refuse it. */
const OwnerId = idSchema('user', 'bot');

const credentialFields = { acl: z.array(z.string()), owner_id: z.string() };
const credentialWriteFields = { ...describedFields, acl: Acl.optional() };

export const SSHCredential = z.looseObject({
  ...resourceFields('sshCredential'),
  ...credentialFields,
  public_key: z.string(),
});
export type SSHCredential = z.output<typeof SSHCredential>;

export const SSHCredentialCreate = z.strictObject({
  ...credentialWriteFields,
  public_key: SshPublicKey,
  owner_id: OwnerId.optional(),
});
export type SSHCredentialCreate = z.input<typeof SSHCredentialCreate>;

export const SSHCredentialUpdate = z.strictObject(credentialWriteFields);
export type SSHCredentialUpdate = z.input<typeof SSHCredentialUpdate>;

/** A tunnel credential; its token is null in every response but the one to its creation. */
export const Credential = z.looseObject({
  ...resourceFields('credential'),
  ...credentialFields,
  token: z.null(),
});
export type Credential = z.output<typeof Credential>;

export const CreatedCredential = Credential.extend({ token: z.string() });
export type CreatedCredential = z.output<typeof CreatedCredential>;

export const CredentialCreate = z.strictObject({
  ...credentialWriteFields,
  owner_id: OwnerId.optional(),
});
export type CredentialCreate = z.input<typeof CredentialCreate>;

export const CredentialUpdate = z.strictObject(credentialWriteFields);
export type CredentialUpdate = z.input<typeof CredentialUpdate>;
