import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { noSecretService } from '../../../support/secret-service.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { FAST_RETRY } from '../api/support.ts';
import { callerOf, keychainProfile, startApp } from '../profiles/support.ts';
import { burrow } from '../../cli/support.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

/*
 * Burrow's own changes are not drift: "Expose a service…", resource edits in the window and
 * `burrow apply` move a watched profile's baseline; a change made with another tool is still found.
 */

const cleanup = cleanupAfterAll();

it('expose, window edits and burrow apply are kept; another tool’s change is drift', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const { sandbox, keychain, dir, profile } = await keychainProfile(cleanup, 'own-changes');
  // Drift reads within half the key's window: four reads of the account here would wait for it.
  const { burrow: app } = await startApp({
    dataDir: dir,
    secrets: keychain,
    client: { retry: FAST_RETRY, rateLimit: { requests: 10_000, windowMs: 60_000 } },
  });
  const call = callerOf(app);
  const request = { profileId: profile.id };
  const drift = async () => ((await call('drift.check', request)) as { drift: unknown }).drift;

  await call('drift.watch', request);
  const exposed = await call('expose.run', {
    name: 'wiki',
    hostport: 'wiki.example.com:443',
    labels: { service: 'wiki' },
  });
  expect(exposed).toMatchObject({ outcome: 'created' });
  expect(await drift()).toBeNull();

  // Edits in the window: a check asked for at once waits for the baseline they moved.
  const made = (await call('api.ipPolicies.create', {
    body: { description: 'in the window' },
  })) as {
    id: string;
  };
  await call('api.ipPolicies.update', {
    params: { id: made.id },
    body: { description: 'renamed' },
  });
  expect(await drift()).toBeNull();

  const document = join(dir, 'snapshot.json');
  const exported = await burrow(['export', '--output', document, '--data-dir', dir], {
    keychainService: keychain.service,
  });
  expect(exported.code, exported.stderr).toBe(0);
  type Entry = { name: string; id: string; fields: Record<string, unknown> };
  const edited = JSON.parse(await readFile(document, 'utf8')) as {
    resources: { ipPolicy: Entry[] };
  };
  edited.resources.ipPolicy.push({
    name: 'ipPolicy/terminal',
    id: 'ipp_fromaterminal',
    fields: { description: 'applied from a terminal' },
  });
  await writeFile(document, JSON.stringify(edited));
  const applied = await burrow(['apply', document, '--yes', '--data-dir', dir], {
    keychainService: keychain.service,
  });
  expect(applied.code, applied.stderr).toBe(0);
  expect(await drift()).toBeNull();

  await apiCaller(sandbox.url, 'own-changes')('POST', '/ip_policies', { description: 'by hand' });
  expect(await drift()).toMatchObject({ summary: expect.stringMatching(/1 IP polic/) });
});
