import path from 'node:path';
import { isIdOf } from '../shared/api/ids.ts';
import { NewKeySpec, VALIDITY_PRESETS, type ValidityPreset } from '../shared/app/ssh/requests.ts';
import type { SignResult } from '../shared/app/ssh/results.ts';
import { createSshService, type SshService } from '../core/ssh/service.ts';
import type { Options } from './args.ts';
import { CliError, UsageError, writeJson, type Io } from './io.ts';
import type { Target } from './target.ts';

type SshOptions = Options['ssh'];

/** The CA by its id, or by a description only one CA of the account has. */
async function caIdOf(target: Target, ca: string | undefined): Promise<string> {
  if (ca === undefined) throw new UsageError('--ca names the SSH certificate authority', 'ssh');
  if (isIdOf('sshCertificateAuthority', ca)) return ca;
  const all = await target.client.sshCertificateAuthorities.listAll();
  const named = all.filter((c) => c.description === ca);
  if (named.length === 1 && named[0]) return named[0].id;
  throw new CliError(
    named.length === 0
      ? `No SSH certificate authority of ${target.label} is described "${ca}" (give its id or description)`
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

async function signing(target: Target, options: SshOptions) {
  return {
    caId: await caIdOf(target, options.ca),
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

/** What `burrow ssh` asks of core/ssh: the same methods as the window's `ssh.*` calls. */
export type SshDoor = Pick<
  SshService,
  'generateKeyAndCertificate' | 'signExistingKey' | 'renew' | 'listSaved'
>;

async function serviceOf(target: Target): Promise<SshDoor> {
  return createSshService({
    store: await target.store(),
    // A saved certificate remembers the profile that signed it: renewing goes back there.
    api: async (profileId) => {
      if (profileId !== undefined && profileId !== target.profileId)
        throw new CliError(
          'That certificate was signed through another profile: pass its --profile to renew it',
        );
      return { profileId: target.profileId, api: target.client };
    },
  });
}

/** `burrow ssh new|sign|renew`: core/ssh's service on the command's profile. */
export async function sshCommand(
  target: Target,
  subcommand: string,
  arg: string,
  options: Options,
  io: Io,
  door?: SshDoor,
): Promise<number> {
  const ssh = door ?? (await serviceOf(target));
  const o = options.ssh;
  if (subcommand === 'new') {
    const key = NewKeySpec.safeParse({ type: o.keyType ?? 'ed25519' });
    if (!key.success) throw new UsageError('--key-type must be ed25519, ecdsa or rsa', 'ssh');
    const result = await ssh.generateKeyAndCertificate({
      key: key.data,
      target: {
        name: arg,
        overwrite: o.overwrite,
        ...(o.dir !== undefined && { folder: path.resolve(io.cwd, o.dir) }),
      },
      certificate: await signing(target, o),
    });
    report(io, options, 'Made a key pair and', result);
    return 0;
  }
  if (subcommand === 'sign') {
    const result = await ssh.signExistingKey({
      publicKeyPath: path.resolve(io.cwd, arg),
      overwrite: o.overwrite,
      certificate: await signing(target, o),
    });
    report(io, options, 'Signed', result);
    return 0;
  }
  const matches = ssh
    .listSaved()
    .filter(
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
  report(io, options, 'Renewed', await ssh.renew(saved.id));
  return 0;
}
