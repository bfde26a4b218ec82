import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientOf, startSandbox, type Sandbox } from '../core/api/support.ts';
import { burrow, oneLine, tempDir } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

const exec = promisify(execFile);
const cleanup = cleanupAfterAll();
let sandbox: Sandbox;
let dir: string;
let caId: string;

const run = (...argv: string[]) =>
  burrow([...argv, '--api-url', sandbox.url, '--data-dir', dir], {
    env: { BURROW_API_KEY: sandbox.apiKey },
  });

/** What ssh-keygen itself reads in a certificate. */
async function certificate(file: string): Promise<string> {
  return (await exec('ssh-keygen', ['-L', '-f', file])).stdout;
}

beforeAll(async () => {
  dir = await tempDir(cleanup);
  sandbox = await startSandbox({ apiKey: 'cli-ssh', rateLimit: 'off' });
  const api = clientOf(sandbox).client;
  cleanup.push(
    () => sandbox.close(),
    () => api.close(),
  );
  caId = (
    await api.sshCertificateAuthorities.create({
      description: 'people',
      private_key_type: 'ed25519',
    })
  ).id;
});

/** `burrow ssh sign` of the public half of `key`. */
const sign = (key: string, ...options: string[]) => run('ssh', 'sign', `${key}.pub`, ...options);

/** An ed25519 key pair ssh-keygen makes, without a passphrase, in the test's folder: its path. */
async function newKey(name: string): Promise<string> {
  const key = join(dir, name);
  await exec('ssh-keygen', ['-t', 'ed25519', '-N', '', '-q', '-f', key]);
  return key;
}

describe('burrow ssh', () => {
  it('new: a key pair and its certificate, the CA named by description; then renew it by name', async () => {
    const keys = join(dir, 'keys');
    const made = await run(
      'ssh',
      'new',
      'alice',
      '--ca',
      'people',
      '--principal',
      'alice',
      '--dir',
      keys,
    );
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect((await stat(join(keys, 'alice'))).mode & 0o777).toBe(0o600);
    const first = await certificate(join(keys, 'alice-cert.pub'));
    expect(first).toMatch(/user certificate/);
    expect(first).toMatch(/Principals:\s*\n\s*alice\n/);

    const again = await run('ssh', 'new', 'alice', '--ca', caId, '--dir', keys);
    expect(again.code).toBe(1);
    oneLine(again, join(keys, 'alice'));

    const renewed = await run('ssh', 'renew', 'alice', '--json');
    expect(renewed.code).toBe(0);
    const result = JSON.parse(renewed.stdout) as { saved: { renewedAt: string | null } };
    expect(result.saved.renewedAt).not.toBeNull();
    expect(await certificate(join(keys, 'alice-cert.pub'))).not.toBe(first);
  });

  it('sign: an existing public key, as a host certificate for a week', async () => {
    const key = await newKey('host_key');
    const signed = await sign(
      key,
      '--ca',
      caId,
      '--host',
      '--principal',
      'web.example.com',
      '--validity',
      '7d',
    );
    expect(signed.code).toBe(0);
    const text = await certificate(`${key}-cert.pub`);
    expect(text).toMatch(/host certificate/);
    expect(text).toMatch(/web\.example\.com/);
  });

  it('a CA described with the prefix of an id, but no id, is found by its description', async () => {
    const api = clientOf(sandbox).client;
    cleanup.push(() => api.close());
    await api.sshCertificateAuthorities.create({
      description: 'sshca_ ops',
      private_key_type: 'ed25519',
    });
    const key = await newKey('ops_key');
    const signed = await sign(key, '--ca', 'sshca_ ops', '--principal', 'ops');
    expect(signed).toMatchObject({ code: 0, stderr: '' });
    expect(await certificate(`${key}-cert.pub`)).toMatch(/Principals:\s*\n\s*ops\n/);
  });

  it('a CA nobody has, a bad validity, a certificate never saved: one line each, exit 1', async () => {
    const noCa = await run('ssh', 'new', 'x', '--ca', 'nobody', '--dir', dir);
    expect(noCa.code).toBe(1);
    oneLine(noCa, 'described "nobody"');
    const validity = await run('ssh', 'new', 'x', '--ca', caId, '--validity', '2w', '--dir', dir);
    expect(validity.code).toBe(1);
    oneLine(validity, '--validity must be one of 1h');
    const unsaved = await run('ssh', 'renew', 'ghost');
    expect(unsaved.code).toBe(1);
    oneLine(unsaved, 'No saved certificate is named "ghost"');
  });
});
