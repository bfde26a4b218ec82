import type { DoorAccount } from '../door.ts';
import { defineCommand } from '../command.ts';

export default defineCommand({
  summary: 'SSH keys and certificates signed by a CA of the profile',
  details:
    '"ssh new NAME --ca CA" makes a key pair (not passphrase-protected: add one with ' +
    'ssh-keygen -p) and its certificate as NAME, NAME.pub and NAME-cert.pub in --dir (default ' +
    '~/.ssh); "ssh sign FILE.pub --ca CA" signs an existing public key, saving FILE-cert.pub ' +
    'beside it; "ssh renew NAME" signs a saved certificate again (NAME is its key file name or ' +
    'its id). CA is the id or the description of an SSH certificate authority. Existing files ' +
    'are never replaced without --overwrite.',
  args: ['new|sign|renew', 'NAME|FILE'],
  subcommands: ['new', 'sign', 'renew'],
  options: {
    ca: {
      type: 'string',
      value: 'CA',
      help: 'the SSH certificate authority (id or description)',
    },
    principal: {
      type: 'string',
      multiple: true,
      value: 'P',
      help: 'a user (or host) name the certificate is for; repeatable',
    },
    host: { type: 'boolean', help: 'a host certificate (default: a user certificate)' },
    validity: {
      type: 'string',
      value: 'V',
      help: '1h, 8h, 1d, 7d, 30d, 90d or 1y (default 1d; 1y for hosts)',
    },
    'key-type': { type: 'string', value: 'T', help: 'ed25519 (default), ecdsa or rsa' },
    dir: { type: 'string', value: 'DIR', help: 'where the key files go (default ~/.ssh)' },
    overwrite: { type: 'boolean', help: 'replace files that exist' },
  },
  examples: [
    'burrow ssh new deploy --ca "Team CA" --principal deploy --validity 8h',
    'burrow ssh sign ~/.ssh/id_ed25519.pub --ca "Team CA" --principal me',
    'burrow ssh renew deploy',
  ],
  run: async ({ args: [subcommand = '', arg = ''], values: v, options, io }) => {
    // Loaded when a command runs: `burrow --help` and completion read only the declarations.
    const [{ sshCommand }, { openDoor }] = await Promise.all([
      import('../ssh.ts'),
      import('../door.ts'),
    ]);
    const { door, accounts } = await openDoor(options, io, { sshCertificates: true });
    try {
      return await sshCommand(
        door,
        accounts[0] as DoorAccount,
        subcommand,
        arg,
        {
          ...options,
          ssh: {
            ...(v.ca !== undefined && { ca: v.ca }),
            principals: v.principal,
            host: v.host,
            ...(v.validity !== undefined && { validity: v.validity }),
            ...(v['key-type'] !== undefined && { keyType: v['key-type'] }),
            ...(v.dir !== undefined && { dir: v.dir }),
            overwrite: v.overwrite,
          },
        },
        io,
      );
    } finally {
      await door.close();
    }
  },
});
