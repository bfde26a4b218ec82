import { expect, it } from 'vitest';
import { callerOf, startApp } from './support.ts';

/*
 * Removing the Local sandbox profile and making it again, on the real keychain and embedded
 * sandbox, with the whole app listening (the monitor follows the profiles): the removed
 * profile's sandbox stops and stays stopped, and the new profile's calls work at once.
 */
it('stops the removed Local sandbox for good, and the new one answers its own key at once', async () => {
  const app = await startApp();
  const call = callerOf(app.burrow);
  await call('api.tunnelSessions.listAll');
  const old = app.burrow.profiles.state();
  const oldUrl = old.profiles[0]?.baseUrl ?? '';
  expect(oldUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
  // Polled by the monitor, as in the app: its status changes reach the monitor's wiring.
  await expect
    .poll(() => app.burrow.watched.snapshot().profiles[0]?.polls ?? 0, { timeout: 20_000 })
    .toBeGreaterThan(0);

  await call('profiles.remove', old.profiles[0]?.id);
  await call('profiles.createLocal');
  // At once: the first call after the creation answers, with no 401 from a sandbox of the old key.
  await expect(call('api.tunnelSessions.listAll')).resolves.toBeInstanceOf(Array);
  const now = app.burrow.profiles.state();
  expect(now.local.state).toBe('running');
  const newUrl = now.profiles[0]?.baseUrl ?? '';
  expect(newUrl).not.toBe(oldUrl);

  // The old sandbox stays stopped: nothing answers at its address, now or a moment later.
  const answers = () =>
    fetch(`${oldUrl}/tunnel_sessions`).then(
      () => true,
      () => false,
    );
  expect(await answers()).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(await answers()).toBe(false);
  await expect
    .poll(() => app.burrow.watched.snapshot().profiles.map((p) => p.health), { timeout: 20_000 })
    .toEqual(['ok']);
});
