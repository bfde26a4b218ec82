/**
 * The SSH calls through the contract, as a window makes them: dispatchIpc on the real core (conf,
 * the real keychain, the embedded Local sandbox as the active profile), keys saved to a throwaway
 * home and read back by ssh-keygen. What crosses back is checked for the private key and the
 * passphrase, which must never be there.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { dispatchIpc } from '../../../../core/ipc/dispatch.ts';
import type { IpcReply } from '../../../../shared/app/ipc/bridge.ts';
import type { IpcCallName, IpcResult } from '../../../../shared/app/ipc/contract.ts';
import { currentUser, sshKeygen, startAgent, tempDir } from '../../../support/openssh.ts';
import { startApp, type TestApp } from '../profiles/support.ts';

const PASSPHRASE = 'correct horse battery staple';

let app: TestApp;
let home: string;
let caId: string;
const replies: IpcReply[] = [];

async function call(name: string, ...args: unknown[]): Promise<IpcReply> {
  const reply = await dispatchIpc(app.burrow.implementation, name, args);
  replies.push(reply);
  return reply;
}

async function value<N extends IpcCallName>(name: N, ...args: unknown[]): Promise<IpcResult<N>> {
  const reply = await call(name, ...args);
  if (!reply.ok) throw new Error(`${name}: ${reply.error.code} ${reply.error.message}`);
  return reply.value as IpcResult<N>;
}

const key = (file: string) => path.join(home, '.ssh', file);
const generateRequest = (overwrite = false) => ({
  key: { type: 'ed25519' },
  passphrase: PASSPHRASE,
  target: { name: 'id_ipc', overwrite },
  certificate: { caId, principals: [currentUser], validity: { preset: '1h' } },
});

beforeAll(async () => {
  home = await tempDir('burrow-ssh-ipc-');
  app = await startApp({ home });
  const ca = await value('api.sshCertificateAuthorities.create', {
    body: { private_key_type: 'ed25519' },
  });
  caId = ca.id;
}, 60_000);

it('generates, signs and saves through the contract, with progress events', async () => {
  expect(await value('ssh.defaultFolder')).toBe(path.join(home, '.ssh'));
  const made = await value('ssh.generate', generateRequest(), 'gen-1');

  expect(made.files.map((f) => f.path)).toEqual([
    key('id_ipc'),
    key('id_ipc.pub'),
    key('id_ipc-cert.pub'),
  ]);
  const progress = app.events.filter((e) => e.name === 'ssh.progress').map((e) => e.payload);
  expect(progress.map((p) => [p.requestId, p.step])).toEqual([
    ['gen-1', 'generating'],
    ['gen-1', 'signing'],
    ['gen-1', 'saving'],
  ]);

  // The passphrase opens the key, and the public key it yields is the saved one.
  const recovered = await sshKeygen('-y', '-P', PASSPHRASE, '-f', key('id_ipc'));
  const publicKey = await readFile(key('id_ipc.pub'), 'utf8');
  expect(recovered.trim().split(' ').slice(0, 2)).toEqual(publicKey.trim().split(' ').slice(0, 2));
  const listing = await sshKeygen('-L', '-f', key('id_ipc-cert.pub'));
  expect(listing).toContain(`Key ID: "${made.certificate.keyId}"`);
  expect(listing).toMatch(new RegExp(`Principals:\\s+${currentUser}`));

  // The record names the profile that signed, so renewing asks the same account.
  const [saved] = await value('ssh.listSaved');
  expect(saved?.profileId).toBe(app.burrow.profiles.activeProfile()?.id);
});

it('answers an existing file as data with its code and paths, and replaces only when asked', async () => {
  const reply = await call('ssh.generate', generateRequest());
  expect(reply.ok).toBe(false);
  if (reply.ok) return;
  expect(reply.error.code).toBe('SSH_FILE_EXISTS');
  expect(reply.error.paths).toEqual([key('id_ipc'), key('id_ipc.pub'), key('id_ipc-cert.pub')]);

  const replaced = await value('ssh.generate', generateRequest(true));
  expect(replaced.files).toHaveLength(3);
  // The record of the replaced files goes with them: renewing it would certify a key now gone.
  const saved = await value('ssh.listSaved');
  expect(saved.map((s) => s.id)).toEqual([replaced.saved.id]);
});

it('refuses arguments outside the contract before the service runs', async () => {
  const reply = await call('ssh.generate', { ...generateRequest(), target: { name: '../evil' } });
  expect(reply.ok).toBe(false);
  if (!reply.ok) expect(reply.error.code).toBe('IPC_BAD_ARGUMENTS');
});

it.skipIf(process.platform === 'win32')(
  'refuses a folder that is not absolute on this system, naming the field',
  async () => {
    const share = `\\\\srv-${process.pid}\\share`;
    try {
      const reply = await call('ssh.generate', {
        ...generateRequest(),
        target: { name: 'id_share', folder: share },
      });
      expect(reply.ok).toBe(false);
      if (reply.ok) return;
      expect(reply.error).toMatchObject({ code: 'SSH_INVALID_INPUT', field: 'target.folder' });
      expect(reply.error.message).toContain(share);
    } finally {
      await rm(path.resolve(share), { recursive: true, force: true });
    }
  },
);

it('renews through the contract: a new certificate for the same key', async () => {
  const [saved] = await value('ssh.listSaved');
  if (!saved) throw new Error('nothing saved');
  const publicKey = await readFile(key('id_ipc.pub'), 'utf8');
  const renewed = await value('ssh.renew', saved.id);
  expect(renewed.saved.id).toBe(saved.id);
  expect(renewed.saved.certificateId).not.toBe(saved.certificateId);
  expect(await readFile(key('id_ipc.pub'), 'utf8')).toBe(publicKey);
  const decoded = await value('ssh.decode', {
    path: key('id_ipc-cert.pub'),
  });
  expect(decoded.keyId).toBe(renewed.certificate.keyId);
  expect(decoded.publicKey).toBe(publicKey.trim().split(' ').slice(0, 2).join(' '));
});

it('reads certificates only: of another file, not a byte goes back', async () => {
  const reply = await call('ssh.decode', { path: key('id_ipc') });
  expect(reply.ok).toBe(false);
  if (!reply.ok)
    expect(reply.error).toEqual({
      code: 'SSH_INVALID_CERTIFICATE',
      message: `${key('id_ipc')} is not an OpenSSH certificate`,
    });
});

it('gives the trust lines of a CA of the active profile', async () => {
  const lines = await value('ssh.trustLines', { caId });
  expect(lines.knownHostsLine).toMatch(/^@cert-authority \* ssh-ed25519 /);
});

it("adds the key to the app's own agent with its passphrase, and no other agent", async () => {
  const [saved] = await value('ssh.listSaved');
  if (!saved) throw new Error('nothing saved');
  const elsewhere = await call('ssh.addToAgent', {
    savedId: saved.id,
    passphrase: PASSPHRASE,
    socket: '/tmp/someone-elses.sock',
  });
  expect(elsewhere.ok || elsewhere.error.code).toBe('IPC_BAD_ARGUMENTS');

  const agent = await startAgent(home);
  const before = process.env['SSH_AUTH_SOCK'];
  process.env['SSH_AUTH_SOCK'] = agent.socket;
  try {
    const added = await value('ssh.addToAgent', { savedId: saved.id, passphrase: PASSPHRASE });
    expect(added.certificateHeld).toBe(true);
    expect((await agent.list()).some((l) => l.includes('-cert-v01@openssh.com'))).toBe(true);
  } finally {
    if (before === undefined) delete process.env['SSH_AUTH_SOCK'];
    else process.env['SSH_AUTH_SOCK'] = before;
    await agent.close();
  }
});

it('never lets the private key or the passphrase cross back, in a reply or an event', async () => {
  const privateKey = await readFile(key('id_ipc'), 'utf8');
  const body = privateKey.split('\n').slice(1, -2).join('');
  const wire = JSON.stringify([replies, app.events]);
  expect(body.length).toBeGreaterThan(100);
  expect(wire).not.toContain(PASSPHRASE);
  expect(wire).not.toContain('PRIVATE KEY');
  for (const line of privateKey.split('\n').slice(1, -2)) expect(wire).not.toContain(line);
});
