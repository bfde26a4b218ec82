import { describe, expect, it } from 'vitest';
import { SshError } from '../../../../core/ssh/errors.ts';
import { describeCertificate } from '../../../../core/ssh/certificates/info.ts';
import { sshCommand } from '../../../../core/ssh/usage/ssh-command.ts';
import { hostBlockText, includeLine } from '../../../../core/ssh/usage/ssh-config.ts';
import { trustLines } from '../../../../core/ssh/usage/trust-lines.ts';
import { PUBLIC_KEYS } from '../../shared/api/fixtures.ts';

describe('sshCommand', () => {
  it('names the key and the certificate, quoted for a shell when needed', () => {
    const plain = sshCommand('/home/a/.ssh/id', '/home/a/.ssh/id-cert.pub', {
      user: 'alice',
      host: 'db1',
    });
    expect(plain.text).toBe(
      'ssh -i /home/a/.ssh/id -o CertificateFile=/home/a/.ssh/id-cert.pub alice@db1',
    );
    const spaced = sshCommand("/home/a/my keys/o'k", '/c', { host: 'h', port: 2222 });
    expect(spaced.argv).toEqual([
      'ssh',
      '-i',
      "/home/a/my keys/o'k",
      '-o',
      'CertificateFile=/c',
      '-p',
      '2222',
      'h',
    ]);
    expect(spaced.text).toBe(`ssh -i '/home/a/my keys/o'\\''k' -o CertificateFile=/c -p 2222 h`);
  });
});

describe('ssh_config', () => {
  it('quotes paths and doubles % (ssh expands %-tokens there)', () => {
    const text = hostBlockText({
      hostAlias: 'db',
      hostName: 'db.example.com',
      user: 'alice',
      privateKeyPath: '/home/a/100% keys/id',
      certificatePath: '/home/a/100% keys/id-cert.pub',
    });
    expect(text).toContain('    IdentityFile "/home/a/100%% keys/id"\n');
    expect(text).toContain('    User alice\n');
    expect(text).not.toContain('Port');
    expect(includeLine('/home/a/.ssh/burrow')).toBe('Include "/home/a/.ssh/burrow/*.conf"');
  });

  it('refuses a path ssh_config cannot hold', () => {
    expect(() =>
      hostBlockText({
        hostAlias: 'x',
        hostName: 'x',
        privateKeyPath: '/a"b',
        certificatePath: '/c',
      }),
    ).toThrow(SshError);
  });
});

describe('trustLines', () => {
  it('gives the CA key for TrustedUserCAKeys and as an @cert-authority line', () => {
    const key = PUBLIC_KEYS.ed25519;
    const lines = trustLines(`${key} some comment`, 'sshca_1');
    const bare = key.split(' ').slice(0, 2).join(' ');
    expect(lines.trustedUserCaKeysLine).toBe(`${bare} sshca_1`);
    expect(lines.knownHostsLine).toBe(`@cert-authority * ${bare} sshca_1`);
  });
});

describe('describeCertificate', () => {
  it.each([
    ['', /no certificate/],
    ['ssh-ed25519 AAAA', /not an OpenSSH certificate type/],
    ['ssh-ed25519-cert-v01@openssh.com !!!', /not valid base64/],
    [
      'ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZW5zc2guY29t',
      /cut short/,
    ],
  ])('refuses %j with a clear message', (text, message) => {
    expect(() => describeCertificate(text)).toThrow(message);
    try {
      describeCertificate(text);
    } catch (error) {
      expect((error as SshError).code).toBe('invalid-certificate');
    }
  });
});
