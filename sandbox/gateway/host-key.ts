import { writeFile } from 'node:fs/promises';
import ssh2 from 'ssh2';
import { readSmallFileOrWhy } from '../../shared/node/small-file.ts';

/** An ed25519 key in OpenSSH's format is about 400 bytes: anything this big is not ours. */
const MAX_HOST_KEY_BYTES = 16 * 1024;

export type HostKey = {
  /** OpenSSH private key format, as the ssh2 server takes it. */
  readonly privateKey: string;
  /** `ssh-ed25519 <base64>`, for a known_hosts line. */
  readonly publicKey: string;
};

/** Next to the data file: one sandbox, one host identity. */
export function hostKeyPath(dataFile: string): string {
  return `${dataFile}.ssh-host-key`;
}

function publicLineOf(privateKey: string, source: string): string {
  const parsed = ssh2.utils.parseKey(privateKey);
  if (parsed instanceof Error || !parsed.isPrivateKey())
    throw new Error(
      `${source} is not an SSH private key: ${parsed instanceof Error ? parsed.message : 'public'}`,
    );
  return `${parsed.type} ${parsed.getPublicSSH().toString('base64')}`;
}

/**
 * The gateway's ed25519 host key. Without a data file it is new on every start (clients connect
 * with host key checking off, or accept the new key). With one it is kept beside it, created on
 * first use with mode 0600, so that known_hosts entries stay valid across restarts.
 */
export async function loadHostKey(dataFile?: string): Promise<HostKey> {
  if (dataFile === undefined) return generateHostKey();
  const path = hostKeyPath(dataFile);
  const read = await readSmallFileOrWhy(path, MAX_HOST_KEY_BYTES);
  if ('refused' in read) throw new Error(`cannot read the SSH host key ${path}: ${read.refused}`);
  if ('text' in read)
    return { privateKey: read.text, publicKey: publicLineOf(read.text, `host key file ${path}`) };
  const key = generateHostKey();
  try {
    // wx: never overwrite a key that appeared meanwhile; clients may already trust it.
    await writeFile(path, key.privateKey, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadHostKey(dataFile);
    throw new Error(`cannot write the SSH host key ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return key;
}

/**
 * ssh2 1.17 writes about one ed25519 key in two hundred that its own parser then refuses
 * ("Malformed OpenSSH private key"), and the gateway would keep failing on that file: a key it
 * cannot read is made again. Ten tries all refused would take a broken ssh2, which is said.
 */
export function generateHostKey(
  make = () => ssh2.utils.generateKeyPairSync('ed25519', { comment: 'burrow-sandbox-gateway' }),
): HostKey {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const pair = make();
    if (ssh2.utils.parseKey(pair.private) instanceof Error) continue;
    return { privateKey: pair.private, publicKey: pair.public.split(' ').slice(0, 2).join(' ') };
  }
  throw new Error('ssh2 makes no SSH host key it can read');
}
