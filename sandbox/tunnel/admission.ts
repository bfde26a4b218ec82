import { aclPermitsBind } from '../../shared/api/values/acl.ts';
import type { Store } from '../store/store.ts';
import type { Hello, Refused } from './protocol.ts';

export type Admitted = { readonly account: string; readonly credentialId: string };

/**
 * Whether a hello may start a session: its authtoken must be a tunnel credential's, and every
 * bind it asks for must be permitted by that credential's ACL. A refusal names what failed.
 */
export function admit(store: Store, hello: Hello): Admitted | Omit<Refused, 'type'> {
  const owner = store.credentialByToken(hello.authtoken);
  const credential =
    owner && store.accounts.get(owner.account)?.collections.credential.get(owner.credentialId);
  if (!owner || !credential)
    return {
      code: 'authtokenInvalid',
      message: 'the authtoken is not valid: no tunnel credential has it',
    };
  for (const bind of hello.binds)
    if (!aclPermitsBind(credential.acl, bind))
      return {
        code: 'bindNotPermitted',
        message: `bind "${bind}" is not permitted by the ACL of credential ${credential.id} (${credential.acl.join(', ')})`,
      };
  return owner;
}
