import { aclPermitsBind } from '../../shared/api/values/acl.ts';
import type { Credential } from '../../shared/api/kinds/credentials.ts';

/**
 * The credential an agent serving these label binds can start its session with, when the
 * account has one; undefined when a new one is needed.
 *
 * A credential fits when its ACL permits every bind (the spec's ACL rules: no ACL, an empty one
 * or `*` permits everything; `bind:key=value` permits that label, either side may be `*`; domain
 * and address rules permit no label). Of those that fit, one whose ACL names rules is taken
 * before an unrestricted one: a credential made for labels is the one meant for such agents,
 * and the agent then holds no more power than it needs. Among equals, the newest (the API lists
 * newest first).
 */
export function fittingCredential(
  credentials: readonly Credential[],
  binds: readonly string[],
): Credential | undefined {
  const fits = credentials.filter((c) => binds.every((bind) => aclPermitsBind(c.acl, bind)));
  return fits.find((c) => !unrestricted(c.acl)) ?? fits[0];
}

function unrestricted(acl: readonly string[] | null | undefined): boolean {
  return !acl || acl.length === 0 || acl.includes('*');
}
