/**
 * The CA's key as sshd (TrustedUserCAKeys) and ssh (`@cert-authority` in known_hosts) take it.
 * The comment names the CA, so that a person can later tell which line is whose.
 */
import type { TrustLines } from '../../../shared/app/ssh/results.ts';

export function trustLines(
  caPublicKey: string,
  caId: string | undefined,
  hostPattern = '*',
): TrustLines {
  const [algorithm = '', blob = ''] = caPublicKey.trim().split(/\s+/);
  const key = `${algorithm} ${blob}`;
  const withComment = caId === undefined ? key : `${key} ${caId}`;
  return {
    publicKey: key,
    trustedUserCaKeysLine: withComment,
    sshdConfigLine: 'TrustedUserCAKeys /etc/ssh/trusted_user_ca_keys',
    knownHostsLine: `@cert-authority ${hostPattern} ${withComment}`,
  };
}
