import { expect, it } from 'vitest';
import { EventHub } from '../../../../core/ipc/events.ts';
import { appUpdates } from '../../../../core/app-updates/app.ts';

const settings = { get: () => ({ updates: { autoDownload: true } }) };

it('says in words why there is no updater, and every call answers that state', async () => {
  const browser = appUpdates(
    { version: '1.4.0', shell: 'browser' },
    undefined,
    settings,
    new EventHub(),
  );
  const sources = appUpdates(
    { version: '1.4.0', shell: 'electron' },
    undefined,
    settings,
    new EventHub(),
  );
  const mac = appUpdates(
    { version: '1.4.0', shell: 'electron' },
    { engine: null, unavailable: 'Get new versions from the releases' },
    settings,
    new EventHub(),
  );
  expect(browser.handlers['updates.state']()).toEqual({
    phase: 'unavailable',
    current: '1.4.0',
    offered: null,
    message: 'Browser mode has no updater: updates come with the installed desktop app',
    lastCheck: null,
    nextCheckAt: null,
  });
  expect((await sources.handlers['updates.check']()).message).toBe(
    'Burrow runs from its sources here: updates come with an installed release',
  );
  expect((await mac.handlers['updates.download']()).message).toBe(
    'Get new versions from the releases',
  );
  expect(() => mac.handlers['updates.install']()).toThrow('No update is ready to install');
});
