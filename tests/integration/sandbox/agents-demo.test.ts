import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { until } from '../../support/agents.ts';
import { expectError } from './support.ts';

const COLLECTIONS = [
  ['/ip_policies', 'ip_policies'],
  ['/credentials', 'credentials'],
  ['/backends/http_response', 'backends'],
  ['/edges/tls', 'tls_edges'],
  ['/edges/https', 'https_edges'],
  ['/ssh_certificate_authorities', 'ssh_certificate_authorities'],
] as const;

describe('demo agents', () => {
  it('seeds an empty account, connects three agents that obey commands', async () => {
    const sandbox = await startSandbox({ apiKey: 'demo-key', demo: true, rateLimit: 'off' });
    const api = apiCaller(sandbox.url, 'demo-key');
    try {
      for (const [path, key] of COLLECTIONS)
        expect((await api('GET', path)).body[key], path).toHaveLength(1);
      const [https] = (await api('GET', '/edges/https')).body.https_edges;
      expect(https.routes).toHaveLength(1);

      const sessions = (await api('GET', '/tunnel_sessions')).body.tunnel_sessions;
      expect(sessions.map((s: { os: string }) => s.os).sort()).toEqual([
        'darwin',
        'linux',
        'windows',
      ]);
      const byOs = (os: string) => sessions.find((s: { os: string }) => s.os === os);
      expect(byOs('linux')).toMatchObject({ transport: 'service/v2', ip: '127.0.0.1' });

      expectError(
        await api('POST', `/tunnel_sessions/${byOs('windows').id}/restart`, {}),
        'restartUnsupportedOnWindows',
      );
      expectError(
        await api('POST', `/tunnel_sessions/${byOs('darwin').id}/update`, {}),
        'updateChecksDisabled',
      );
      const linux = byOs('linux').id;
      expect((await api('POST', `/tunnel_sessions/${linux}/restart`, {})).status).toBe(204);
      const ids = async () =>
        (await api('GET', '/tunnel_sessions')).body.tunnel_sessions.map(
          (s: { id: string }) => s.id,
        );
      await until(async () => {
        const now = await ids();
        return now.length === 3 && !now.includes(linux);
      }, 5_000);

      const windows = byOs('windows').id;
      expect((await api('POST', `/tunnel_sessions/${windows}/stop`, {})).status).toBe(204);
      await until(async () => (await ids()).length === 2, 10_000);
      // A stopped demo agent stays stopped.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await ids()).toHaveLength(2);
    } finally {
      await sandbox.close();
    }
  });

  it('seeds only once over a data file; the agents come back with a rotated token', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'burrow-demo-')), 'state.json');
    const counts = async (url: string) => {
      const api = apiCaller(url, 'demo-key');
      return Promise.all(
        COLLECTIONS.map(async ([path, key]) => (await api('GET', path)).body[key].length),
      );
    };
    const first = await startSandbox({ apiKey: 'demo-key', demo: true, dataFile });
    const seeded = await counts(first.url);
    await first.close();
    const second = await startSandbox({ apiKey: 'demo-key', demo: true, dataFile });
    try {
      expect(await counts(second.url)).toEqual(seeded);
      const api = apiCaller(second.url, 'demo-key');
      expect((await api('GET', '/tunnel_sessions')).body.tunnel_sessions).toHaveLength(3);
    } finally {
      await second.close();
    }
  });
});
