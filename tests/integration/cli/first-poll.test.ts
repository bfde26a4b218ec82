import { expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../../cli/args.ts';
import { openDoor } from '../../../cli/door.ts';
import { listedOn } from '../../../cli/session-actions.ts';
import type { Profile } from '../../../shared/app/ipc/profiles.ts';
import { agentName } from '../../../shared/app/monitor.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';
import { startSandbox } from '../core/api/support.ts';
import { callerOf, startApp } from '../core/profiles/support.ts';

const cleanup = cleanupAfterAll();

/*
 * A person starts the app and at once runs `burrow restart build-box`: the command runs inside
 * the app, whose monitor may not have ended its first poll. The command waits for that poll; it
 * does not answer that the agent is not online. The monitor is paused for the test, so that the
 * first poll comes only when the test lets it, after the command has asked.
 */
/** An app whose monitor is paused before it has a profile, and a command's door into it. */
async function pausedApp(apiKey: string) {
  const sandbox = await startSandbox({ apiKey, rateLimit: 'off', demo: true });
  cleanup.push(() => sandbox.close());
  const app = await startApp();
  app.burrow.watched.monitor.pause();
  const profile: Profile = await callerOf(app.burrow)('profiles.add', {
    name: 'Staging',
    baseUrl: sandbox.url,
    apiKey,
  });
  cleanup.push(() => app.secrets.delete(profile.id));
  const io = {
    stdout: { write: () => true },
    stderr: { write: () => true },
    env: {},
    isTTY: { stdin: false, stderr: false },
    cwd: '/',
    keychainService: app.secrets.service,
  };
  const { door } = await openDoor({ ...DEFAULT_OPTIONS, dataDir: app.dataDir }, io);
  cleanup.push(() => door.close());
  return { app: app.burrow, profile, door };
}

it('a command inside an app that has not polled yet waits for its first poll', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const { app, profile, door } = await pausedApp('cli-first-poll');
  const listed = listedOn(door, profile.id);
  // The app answers a command's calls in order: once this one is answered, the command has
  // looked at the monitor, which has not polled.
  await door.call('sessions.snapshot');
  app.watched.monitor.resume();
  expect((await listed).map(agentName)).toContain('build-box');
});

it('a command waiting for the first poll of an app that quits says so', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const { app, profile, door } = await pausedApp('cli-first-poll-quit');
  const listed = listedOn(door, profile.id);
  await door.call('sessions.snapshot');
  const refused = expect(listed).rejects.toThrow('The Burrow app quit while the command ran');
  await app.close();
  await refused;
});
