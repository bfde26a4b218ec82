import { z } from 'zod';
import { flag } from '../errors/rules.ts';

/** Resource kind → id prefix. What follows the prefix is opaque: 1 to 64 ASCII letters and digits. */
export const ID_PREFIXES = {
  ipPolicy: 'ipp_',
  ipPolicyRule: 'ipr_',
  sshCertificateAuthority: 'sshca_',
  sshUserCertificate: 'sucrt_',
  sshHostCertificate: 'shcrt_',
  sshCredential: 'sshcr_',
  credential: 'cr_',
  agentIngress: 'agin_',
  failoverBackend: 'bkdfo_',
  httpResponseBackend: 'bkdhr_',
  tunnelGroupBackend: 'bkdtg_',
  certificateAuthority: 'ca_',
  tlsEdge: 'edgtls_',
  httpsEdge: 'edghts_',
  httpsEdgeRoute: 'edghtsrt_',
  tunnelSession: 'ts_',
  abuseReport: 'abrp_',
  user: 'usr_',
  bot: 'bot_',
  operation: 'op_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ID_SUFFIX = /^[A-Za-z0-9]{1,64}$/;

// Longest prefix first, so that a prefix that begins another (edghts_ / edghtsrt_) never shadows it.
const KINDS_BY_PREFIX_LENGTH = (Object.keys(ID_PREFIXES) as IdKind[]).sort(
  (a, b) => ID_PREFIXES[b].length - ID_PREFIXES[a].length,
);

/** The kind of a well-formed id, or undefined when `s` is no id of any kind. */
export function idKindOf(s: string): IdKind | undefined {
  const kind = KINDS_BY_PREFIX_LENGTH.find((k) => s.startsWith(ID_PREFIXES[k]));
  return kind !== undefined && ID_SUFFIX.test(s.slice(ID_PREFIXES[kind].length)) ? kind : undefined;
}

export function isIdOf(kinds: IdKind | readonly IdKind[], s: unknown): s is string {
  const kind = typeof s === 'string' ? idKindOf(s) : undefined;
  return kind !== undefined && (typeof kinds === 'string' ? kind === kinds : kinds.includes(kind));
}

function prefixList(kinds: readonly IdKind[]): string {
  const quoted = kinds.map((k) => `"${ID_PREFIXES[k]}"`);
  const last = quoted.pop();
  return quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : `${last}`;
}

/**
 * An id of one of `kinds`. A well-formed id of another kind is an invalid reference (223), as the
 * spec's "refers to the wrong kind of resource"; anything else is an invalid value (215).
 */
export function idSchema(...kinds: [IdKind, ...IdKind[]]) {
  const message = `must be an id starting with ${prefixList(kinds)}`;
  return z
    .string()
    .superRefine((s, ctx) => {
      const actual = idKindOf(s);
      if (actual === undefined) flag(ctx, [], message);
      else if (!kinds.includes(actual))
        flag(ctx, [], `${message}, not "${ID_PREFIXES[actual]}"`, 'invalidReference');
    })
    .meta({ pattern: `^(?:${kinds.map((k) => ID_PREFIXES[k]).join('|')})[A-Za-z0-9]{1,64}$` });
}
