import { expect, it } from 'vitest';
import type { ActionEvent } from '../../../shared/app/sessions/actions.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { keychainProfile, startApp } from '../core/profiles/support.ts';
import { burrow } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

/*
 * One system, several doors: while the app runs, `burrow restart` runs inside it (the app's own
 * sessions service hears it, as it hears the window); once the app has quit, the same command
 * builds a Burrow of its own with the same composition root, and says so with --verbose.
 */

const cleanup = cleanupAfterAll();

it('burrow restart runs inside the running app, and alone once it has quit', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const { keychain, dir } = await keychainProfile(cleanup, 'cli-door', {
    demo: true,
  });
  const run = (...argv: string[]) =>
    burrow([...argv, '--data-dir', dir, '--verbose'], { keychainService: keychain.service });

  const { burrow: app } = await startApp({ dataDir: dir, secrets: keychain });
  const heard: ActionEvent[] = [];
  app.sessions.onAction((event) => heard.push(event));
  const inside = await run('restart', 'build-box');
  expect(inside.code, inside.stderr).toBe(0);
  expect(inside.stderr).toBe('burrow: running inside the Burrow app\n');
  expect(heard.map((e) => [e.phase, e.action])).toEqual([
    ['sent', 'restart'],
    ['done', 'restart'],
  ]);

  await app.close();
  const alone = await run('sessions', '--json');
  expect(alone.code, alone.stderr).toBe(0);
  expect(alone.stderr).toMatch(/^burrow: running alone: no Burrow app serves this data folder\n$/);
});
