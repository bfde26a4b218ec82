/** Ready-to-use text for people: the ssh command, an ssh_config block, and the CA trust lines. */
import type { SavedCertificate, SshCommand, TrustLines } from '../../../shared/ssh/results.ts';
import { SshError } from '../errors.ts';

/** POSIX shell quoting: bare when safe, otherwise single quotes. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_/.:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export type Destination = { readonly user?: string; readonly host: string; readonly port?: number };

export function sshCommand(
  privateKeyPath: string,
  certificatePath: string,
  to: Destination,
): SshCommand {
  const argv = ['ssh', '-i', privateKeyPath, '-o', `CertificateFile=${certificatePath}`];
  if (to.port !== undefined) argv.push('-p', String(to.port));
  argv.push(to.user === undefined ? to.host : `${to.user}@${to.host}`);
  return { argv, text: argv.map(shellQuote).join(' ') };
}

/** null for host certificates (they are for sshd) and when the private key's place is unknown. */
export function commandOf(saved: SavedCertificate, to?: Destination): SshCommand | null {
  if (saved.privateKeyPath === null || saved.kind === 'host') return null;
  // The first principal is the user name the certificate is most likely for.
  const user = to?.user ?? saved.principals[0];
  return sshCommand(saved.privateKeyPath, saved.certificatePath, {
    host: 'HOST',
    ...to,
    ...(user !== undefined && { user }),
  });
}

/** A path as an ssh_config argument: quoted, as paths may hold spaces. */
function quoted(p: string): string {
  if (p.includes('"'))
    throw new SshError('invalid-input', `ssh_config cannot name a path with a double quote: ${p}`);
  return `"${p}"`;
}

/** ssh expands %-tokens in IdentityFile and CertificateFile, so a literal `%` is doubled. */
const tokenPath = (p: string) => quoted(p.replace(/%/g, '%%'));

type HostBlock = {
  readonly hostAlias: string;
  readonly hostName: string;
  readonly user?: string | undefined;
  readonly port?: number | undefined;
  readonly privateKeyPath: string;
  readonly certificatePath: string;
};

export function hostBlockText(block: HostBlock): string {
  const lines = [
    '# Written by Burrow, which replaces this file when you change the host in Burrow.',
    `Host ${block.hostAlias}`,
    `    HostName ${block.hostName}`,
    ...(block.user === undefined ? [] : [`    User ${block.user}`]),
    ...(block.port === undefined ? [] : [`    Port ${block.port}`]),
    `    IdentityFile ${tokenPath(block.privateKeyPath)}`,
    `    CertificateFile ${tokenPath(block.certificatePath)}`,
    '    IdentitiesOnly yes',
  ];
  return `${lines.join('\n')}\n`;
}

/** The line that makes ssh read every block Burrow wrote into `configFolder`. */
export function includeLine(configFolder: string): string {
  return `Include ${quoted(`${configFolder}/*.conf`)}`;
}

/**
 * The CA's key as sshd (TrustedUserCAKeys) and ssh (`@cert-authority` in known_hosts) take it.
 * The comment names the CA, so that a person can later tell which line is whose.
 */
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
