import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { freshDataFile as dataFile, spawnSandbox } from './sandbox-process.ts';
import { ACCOUNTS, CA_PEM, expectError } from '../../integration/sandbox/support.ts';

/** A sandbox with key `k` over `file`, without rate limit, and its caller. */
async function onFile(file: string) {
  const sandbox = await startSandbox({ apiKey: 'k', dataFile: file, rateLimit: 'off' });
  return { sandbox, api: apiCaller(sandbox.url, 'k') };
}

describe('--data persistence', () => {
  it('keeps everything across a restart: ids, order, created_at, hashed tokens', async () => {
    const file = dataFile();
    const first = await startSandbox({ accounts: ACCOUNTS, dataFile: file, rateLimit: 'off' });
    const api = apiCaller(first.url, 'alice-key-1');
    const policies = [];
    for (let i = 0; i < 5; i++)
      policies.push((await api('POST', '/ip_policies', { description: `p${i}` })).body);
    const credential = (await api('POST', '/credentials', { acl: ['bind:a.example.com'] })).body;
    const sshCa = (await api('POST', '/ssh_certificate_authorities', { private_key_type: 'ecdsa' }))
      .body;
    const ca = (await api('POST', '/certificate_authorities', { ca_pem: CA_PEM })).body;
    const edge = (
      await api('POST', '/edges/https', { mutual_tls: { certificate_authority_ids: [ca.id] } })
    ).body;
    await api('POST', `/edges/https/${edge.id}/routes`, {
      match_type: 'path_prefix',
      match: '/',
      compression: {},
    });
    await api('DELETE', `/ip_policies/${policies[2].id}`);
    const carol = apiCaller(first.url, 'carol-key-1');
    const globex = (await carol('POST', '/ip_policies', {})).body;
    const before = {
      policies: (await api('GET', '/ip_policies')).body.ip_policies,
      edge: (await api('GET', `/edges/https/${edge.id}`)).body,
      sshCa: (await api('GET', `/ssh_certificate_authorities/${sshCa.id}`)).body,
      credential: (await api('GET', `/credentials/${credential.id}`)).body,
    };
    await first.close();

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(credential.token);

    const second = await startSandbox({
      accounts: ACCOUNTS,
      dataFile: file,
      rateLimit: 'off',
      port: Number(new URL(first.url).port),
    });
    try {
      const again = apiCaller(second.url, 'alice-key-1');
      expect((await again('GET', '/ip_policies')).body.ip_policies).toEqual(before.policies);
      expect((await again('GET', `/edges/https/${edge.id}`)).body).toEqual(before.edge);
      expect((await again('GET', `/ssh_certificate_authorities/${sshCa.id}`)).body).toEqual(
        before.sshCa,
      );
      expect((await again('GET', `/credentials/${credential.id}`)).body).toEqual(before.credential);
      // The token still identifies an agent credential, from its hash alone.
      expectError(
        await apiCaller(second.url, credential.token)('GET', '/ip_policies'),
        'authtokenAsApiKey',
      );
      // The CA can still sign.
      const cert = await again('POST', '/ssh_host_certificates', {
        ssh_certificate_authority_id: sshCa.id,
        public_key: sshCa.public_key,
      });
      expect(cert.status).toBe(201);
      expect(
        (await apiCaller(second.url, 'carol-key-1')('GET', `/ip_policies/${globex.id}`)).status,
      ).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a corrupt or foreign data file, naming it', async () => {
    const file = dataFile();
    writeFileSync(file, '{"format": "burrow-sandbox-state", "version": 1, "accounts": {');
    await expect(startSandbox({ apiKey: 'k', dataFile: file })).rejects.toThrow(file);
    writeFileSync(file, '{"hello": "world"}');
    await expect(startSandbox({ apiKey: 'k', dataFile: file })).rejects.toThrow(
      /not a sandbox state file/,
    );
    writeFileSync(
      file,
      JSON.stringify({
        format: 'burrow-sandbox-state',
        version: 1,
        accounts: { default: { ipPolicy: [{ id: 'ipp_a', created_at: 'yesterday' }] } },
      }),
    );
    await expect(startSandbox({ apiKey: 'k', dataFile: file })).rejects.toThrow(
      /ipPolicy ipp_a: created_at/,
    );
    // Nothing was overwritten.
    expect(readFileSync(file, 'utf8')).toContain('yesterday');
  });

  it('removes temporary files a killed writer left behind', async () => {
    const file = dataFile();
    writeFileSync(`${file}.12345.0.tmp`, '{"partial');
    const s = await startSandbox({ apiKey: 'k', dataFile: file });
    await s.close();
    expect(existsSync(`${file}.12345.0.tmp`)).toBe(false);
  });

  it('survives kill -9 in the middle of a burst: the file holds every acknowledged create', async () => {
    const file = dataFile();
    const expected: string[] = [];
    for (const killAfter of [7, 23]) {
      const child = spawnSandbox(['--data', file]);
      const url = await child.ready;
      const api = apiCaller(url, 'k');
      // Sizeable records, so that writes take long enough for the kill to land inside one.
      const metadata = 'm'.repeat(4000);
      for (let i = 0; ; i++) {
        const pending = api('POST', '/ip_policies', { metadata, description: `${killAfter}-${i}` });
        if (i === killAfter) {
          child.child.kill('SIGKILL');
          await pending.catch(() => undefined);
          break;
        }
        expected.push((await pending).body.id);
      }
      await child.exit;

      const { sandbox: restarted, api: api2 } = await onFile(file);
      try {
        const ids: string[] = [];
        let next: string | null = '/ip_policies';
        while (next) {
          const page = await api2('GET', next);
          ids.push(...page.body.ip_policies.map((p: { id: string }) => p.id));
          next = page.body.next_page_uri;
        }
        ids.reverse();
        // Every acknowledged create, in order; at most the one in flight beyond them.
        expect(ids.slice(0, expected.length)).toEqual(expected);
        expect(ids.length - expected.length).toBeLessThanOrEqual(1);
        expected.splice(0, expected.length, ...ids);
      } finally {
        await restarted.close();
      }
    }
  });

  it('is one sandbox’s: a second is refused (its temp files untouched), a stale lock taken over', async () => {
    const file = dataFile();
    const { sandbox: first, api } = await onFile(file);
    const kept = (await api('POST', '/ip_policies', { description: 'first' })).body.id;
    writeFileSync(`${file}.${process.pid}.99.tmp`, 'a write of the first sandbox');
    await expect(startSandbox({ apiKey: 'k', dataFile: file })).rejects.toThrow(
      `data file ${file} is in use by another sandbox (pid ${process.pid})`,
    );
    const second = await spawnSandbox(['--data', file]).exit;
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^sandbox: data file .* is in use by another sandbox \(pid \d+\)/),
    ]);
    expect(existsSync(`${file}.${process.pid}.99.tmp`)).toBe(true);
    expect((await api('POST', '/ip_policies', { description: 'still first' })).status).toBe(201);
    await first.close();
    expect(existsSync(`${file}.lock`)).toBe(false);

    // A start that fails (its port is taken) lets go of the file.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    await expect(startSandbox({ apiKey: 'k', dataFile: file, port })).rejects.toThrow(/EADDRINUSE/);
    taken.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    await expect(startSandbox({ apiKey: 'k', dataFile: join(file, 'x') })).rejects.toThrow(
      /^cannot lock data file .*x: ENOTDIR/,
    );

    // The lock of a process that is gone (kill -9, a crash) is taken over.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(`${file}.lock`, `${gone}\n`);
    const { sandbox: next, api: nextApi } = await onFile(file);
    try {
      const listed = (await nextApi('GET', '/ip_policies')).body.ip_policies;
      expect(listed.map((p: { description: string }) => p.description)).toEqual([
        'still first',
        'first',
      ]);
      expect(listed[1].id).toBe(kept);
      expect(readFileSync(`${file}.lock`, 'utf8').trim().split(' ')[0]).toBe(String(process.pid));
    } finally {
      await next.close();
    }
  });

  it('a lock naming a live process that did not write it (its pid reused) is taken over', async () => {
    const file = dataFile();
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const pid = other.pid ?? 0;
      const start = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19];
      // That process itself, started when the lock says: it holds the file.
      writeFileSync(`${file}.lock`, `${pid} ${start} burrow-sandbox\n`);
      await expect(startSandbox({ apiKey: 'k', dataFile: file })).rejects.toThrow(
        `data file ${file} is in use by another sandbox (pid ${pid})`,
      );
      // The same pid, another start: the process that wrote it is gone.
      writeFileSync(`${file}.lock`, `${pid} ${Number(start) - 1} burrow-sandbox\n`);
      const { sandbox } = await onFile(file);
      try {
        expect(readFileSync(`${file}.lock`, 'utf8')).toMatch(
          new RegExp(`^${process.pid} \\d+ burrow-sandbox\n$`),
        );
      } finally {
        await sandbox.close();
      }
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('undoes writes the disk refuses: a client told "failed" never finds them, then or later', async () => {
    const file = dataFile();
    const { sandbox, api } = await onFile(file);
    const described = async (path: string) => (await api('GET', path)).body.description;
    const kept = (await api('POST', '/ip_policies', { description: 'kept' })).body;
    const doomed = (await api('POST', '/ip_policies', { description: 'doomed' })).body;
    const edge = (await api('POST', '/edges/https', {})).body;

    // The data file's directory is gone and a file has its name: every write fails, as it would
    // on a full disk or a lost permission (those cannot be made for root, this can).
    const dir = dirname(file);
    renameSync(dir, `${dir}.aside`);
    writeFileSync(dir, 'not a directory');
    for (const [method, path, body] of [
      ['POST', '/ip_policies', { description: 'ghost' }],
      ['PATCH', `/ip_policies/${kept.id}`, { description: 'changed' }],
      ['DELETE', `/ip_policies/${doomed.id}`, undefined],
      ['POST', `/edges/https/${edge.id}/routes`, { match_type: 'path_prefix', match: '/' }],
      ['POST', '/credentials', {}],
    ] as const) {
      const reply = await api(method, path, body);
      expectError(reply, 'internalError');
      expect(reply.body.msg).toMatch(/could not be saved to the data file, and was not made/);
    }
    const state = async () => ({
      policies: (await api('GET', '/ip_policies')).body.ip_policies.map(
        (p: { description: string }) => p.description,
      ),
      kept: await described(`/ip_policies/${kept.id}`),
      doomed: await described(`/ip_policies/${doomed.id}`),
      routes: (await api('GET', `/edges/https/${edge.id}`)).body.routes,
      credentials: (await api('GET', '/credentials')).body.credentials,
    });
    const before = {
      policies: ['doomed', 'kept'],
      kept: 'kept',
      doomed: 'doomed',
      routes: [],
      credentials: [],
    };
    expect(await state()).toEqual(before);

    // The disk is back: the next write is saved, and nothing refused comes with it.
    rmSync(dir);
    renameSync(`${dir}.aside`, dir);
    expect((await api('POST', '/ip_policies', { description: 'after' })).status).toBe(201);
    const after = { ...before, policies: ['after', 'doomed', 'kept'] };
    expect(await state()).toEqual(after);
    await sandbox.close();
    const { sandbox: restarted, api: again } = await onFile(file);
    try {
      expect(
        (await again('GET', '/ip_policies')).body.ip_policies.map(
          (p: { description: string }) => p.description,
        ),
      ).toEqual(after.policies);
      expect((await again('GET', `/edges/https/${edge.id}`)).body.routes).toEqual([]);
    } finally {
      await restarted.close();
    }
  });
});
