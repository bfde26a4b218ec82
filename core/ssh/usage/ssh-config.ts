/** A `Host` block for ssh_config, in a file of its own, and the `Include` line that reads it. */
import { SshError } from '../errors.ts';

/** A path as an ssh_config argument: quoted, as paths may hold spaces. */
function quoted(p: string): string {
  if (p.includes('"'))
    throw new SshError('invalid-input', `ssh_config cannot name a path with a double quote: ${p}`);
  return `"${p}"`;
}

/** ssh expands %-tokens in IdentityFile and CertificateFile, so a literal `%` is doubled. */
const tokenPath = (p: string) => quoted(p.replaceAll('%', '%%'));

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
