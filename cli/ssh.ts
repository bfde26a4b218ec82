import path from 'node:path';
import { isIdOf } from '../shared/api/values/ids.ts';
import { NewKeySpec, VALIDITY_PRESETS, type ValidityPreset } from '../shared/app/ssh/requests.ts';
import type { SignResult } from '../shared/app/ssh/results.ts';
import type { Options } from './args.ts';
import type { Door, DoorAccount } from './door.ts';
import { CliError, UsageError, writeJson, type Io } from './io.ts';

type SshOptions = Options['ssh'];

/** The CA by its id, or by a description only one CA of the account has. */
async function caIdOf(door: Door, account: DoorAccount, ca: string | undefined): Promise<string> {
  if (ca === undefined) throw new UsageError('--ca names the SSH certificate authority', 'ssh');
  if (isIdOf('sshCertificateAuthority', ca)) return ca;
  const all = await door.call('ssh.authorities', account.profileId);
  const named = all.filter((c) => c.description === ca);
  if (named.length === 1 && named[0]) return named[0].id;
  throw new CliError(
    named.length === 0
      ? `No SSH certificate authority of ${account.name} is described "${ca}" (give its id or description)`
      : `${named.length} SSH certificate authorities are described "${ca}": give the id of one`,
  );
}

function validityOf(value: string | undefined) {
  if (value === undefined) return {};
  if (!(value in VALIDITY_PRESETS))
    throw new UsageError(
      `--validity must be one of ${Object.keys(VALIDITY_PRESETS).join(', ')}`,
      'ssh',
    );
  return { validity: { preset: value as ValidityPreset } };
}

async function signing(door: Door, account: DoorAccount, options: SshOptions) {
  return {
    caId: await caIdOf(door, account, options.ca),
    kind: options.host ? ('host' as const) : ('user' as const),
    principals: [...options.principals],
    ...validityOf(options.validity),
  };
}

function report(io: Io, options: Options, what: string, result: SignResult): void {
  if (options.json) return writeJson(io, result);
  const { saved } = result;
  const names = saved.principals.length > 0 ? ` for ${saved.principals.join(', ')}` : '';
  io.stdout.write(
    `${what} a ${saved.kind} certificate${names}, valid until ${saved.validUntil}:\n` +
      result.files.map((f) => `  ${f.path}\n`).join(''),
  );
}

/**
 * `burrow ssh new|sign|renew`: the window's own `ssh.*` calls, on the command's profile, through
 * its door (inside the running app, or a Burrow of the command's own).
 */
export async function sshCommand(
  door: Door,
  account: DoorAccount,
  subcommand: string,
  arg: string,
  options: Options,
  io: Io,
): Promise<number> {
  const { profileId } = account;
  const o = options.ssh;
  if (subcommand === 'new') {
    const key = NewKeySpec.safeParse({ type: o.keyType ?? 'ed25519' });
    if (!key.success) throw new UsageError('--key-type must be ed25519, ecdsa or rsa', 'ssh');
    const result = await door.call('ssh.generate', {
      profileId,
      key: key.data,
      target: {
        name: arg,
        overwrite: o.overwrite,
        ...(o.dir !== undefined && { folder: path.resolve(io.cwd, o.dir) }),
      },
      certificate: await signing(door, account, o),
    });
    report(io, options, 'Made a key pair and', result);
    return 0;
  }
  if (subcommand === 'sign') {
    const result = await door.call('ssh.signExisting', {
      profileId,
      publicKeyPath: path.resolve(io.cwd, arg),
      overwrite: o.overwrite,
      certificate: await signing(door, account, o),
    });
    report(io, options, 'Signed', result);
    return 0;
  }
  const matches = (await door.call('ssh.listSaved')).filter(
    (s) =>
      s.id === arg ||
      path.basename(s.publicKeyPath, '.pub') === arg ||
      s.certificatePath === path.resolve(io.cwd, arg),
  );
  const [saved] = matches;
  if (saved === undefined || matches.length > 1)
    throw new CliError(
      matches.length > 1
        ? `${matches.length} saved certificates are named "${arg}": give the id of one (${matches.map((m) => m.id).join(', ')})`
        : `No saved certificate is named "${arg}": "burrow ssh new" or "burrow ssh sign" saves one`,
    );
  report(io, options, 'Renewed', await door.call('ssh.renew', saved.id));
  return 0;
}
