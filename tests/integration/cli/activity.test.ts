import { expect, it } from 'vitest';
import type { ActivityList } from '../../../shared/app/activity.ts';
import { callerOf, keychainProfile, startApp } from '../core/profiles/support.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { burrow } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

const cleanup = cleanupAfterAll();

it('`burrow restart` adds to the record the app lists, from the command line', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const { keychain, dir, profile } = await keychainProfile(cleanup, 'cli-activity', { demo: true });
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
