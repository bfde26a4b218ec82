import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ProfileService } from '../../../../core/profiles/profiles.ts';
import type { StartLocalSandbox } from '../../../../core/profiles/local-sandbox-start.ts';
import { openConfStore } from '../../../../core/store.ts';
import { startEmbeddedSandbox } from '../../../../sandbox/embedded.ts';
import { startSandbox } from '../../../../sandbox/index.ts';
import { testKeychain } from './support.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';
import { noSecretService } from '../../../support/secret-service.ts';

/*
 * The Local sandbox is made on the first client its profile is asked for, never before: the
 * command line works on one profile, and a command on another must not start it.
 */

const cleanup = cleanupAfterAll();

it('starts the Local sandbox on its first client only, once for racing calls', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const remote = await startSandbox({ apiKey: 'lazy-remote-key', rateLimit: 'off' });
  cleanup.push(() => remote.close());
  const secrets = await testKeychain();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-lazy-'));
  const store = await openConfStore(dataDir);
  const local = { id: 'prf_lazylocal01', name: 'Local sandbox', baseUrl: '', kind: 'local' };
  const prod = { id: 'prf_lazyprod001', name: 'Prod', baseUrl: remote.url, kind: 'remote' };
  store.set('profiles', [local, prod]);
  store.set('activeProfileId', local.id);
  await secrets.set(prod.id, 'lazy-remote-key');
  cleanup.push(
    () => secrets.delete(prod.id),
    () => secrets.delete(local.id),
  );

  let starts = 0;
  const start: StartLocalSandbox = (options) => {
    starts++;
    return startEmbeddedSandbox(options);
  };
  const service = new ProfileService({
    store,
    secrets,
    startLocalSandbox: start,
    localSandboxDir: path.join(dataDir, 'local-sandbox'),
  });
  cleanup.push(() => service.close());
  await service.init();

  const { client } = await service.client(prod.id);
  expect(await client.tunnelSessions.list({ limit: 1 })).toBeDefined();
  // Nothing starts it later either: a start set off by init() would have come by now.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(starts).toBe(0);
  expect(service.state().profiles[0]?.baseUrl).toBe('');

  const [first, second] = await Promise.all([service.client(local.id), service.client()]);
  expect(first.client).toBe(second.client);
  expect(starts).toBe(1);
  expect(service.state().local.state).toBe('running');
  expect(service.state().profiles[0]?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});
