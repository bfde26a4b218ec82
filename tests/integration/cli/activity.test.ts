import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ActivityList } from '../../../shared/app/activity.ts';
import { startSandbox } from '../core/api/support.ts';
import { callerOf, startApp, testKeychain } from '../core/profiles/support.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { burrow, tempDir } from './support.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

it('`burrow restart` adds to the record the app lists, from the command line', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const sandbox = await startSandbox({ apiKey: 'cli-activity', rateLimit: 'off', demo: true });
  cleanup.push(() => sandbox.close());
  const keychain = await testKeychain();
  const dir = await tempDir(cleanup);
  const profile = { id: 'prf_record001', name: 'Staging', baseUrl: sandbox.url, kind: 'remote' };
  await writeFile(
    join(dir, 'settings.json'),
    JSON.stringify({ profiles: [profile], activeProfileId: profile.id }),
  );
  await keychain.set(profile.id, 'cli-activity');
  cleanup.push(() => keychain.delete(profile.id));
  const { burrow: app } = await startApp({ dataDir: dir, secrets: keychain });
  const call = callerOf(app);

  const restarted = await burrow(['restart', 'build-box', '--data-dir', dir], {
    keychainService: keychain.service,
  });
  expect(restarted).toMatchObject({ code: 0, stderr: '' });

  const list: ActivityList = await call('activity.list', { kind: 'action' });
  expect(list.entries).toMatchObject([
    {
      kind: 'action',
      profileId: profile.id,
      title: 'Restart build-box',
      source: 'command line',
      ok: true,
    },
  ]);
  expect(list.entries[0]?.agentId).toMatch(/\S/);
  // The tray hears of another process's line, and forgets it once the screen is seen.
  const activityItem = () => app.tray.model().items.find((i) => i.id === 'activity');
  await expect.poll(activityItem).toMatchObject({ label: '1 new in Activity' });
  await call('activity.seen');
  expect(activityItem()).toBeUndefined();
});
