/** The `ssh` command that logs in with a saved key and its certificate, as argv and as shell text. */
import type { SavedCertificate, SshCommand } from '../../../shared/app/ssh/results.ts';

const SHELL_SAFE = /^[A-Za-z0-9_/.:@%+=,-]+$/;
/** A single quote inside single quotes: close them, an escaped quote, open them again. */
const QUOTE_IN_QUOTES = "'\\''";

/** POSIX shell quoting: bare when safe, otherwise single quotes. */
function shellQuote(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", QUOTE_IN_QUOTES)}'`;
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
