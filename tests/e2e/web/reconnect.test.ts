import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { startWebServer } from '../../../web/server.ts';
import { startApp } from '../../integration/core/profiles/support.ts';
import { launchChromium } from './support-window.ts';

const rendererDir = fileURLToPath(new URL('../../../dist/renderer', import.meta.url));

/*
 * The server drops a tab's event stream when it falls too far behind. In-process, so that the
 * test can send the event that overflows it: the real core, the built renderer, Chromium.
 */
it('comes back after its event stream was dropped and shows what changed meanwhile', async () => {
  const { burrow } = await startApp();
  const [server, browser] = await Promise.all([
    startWebServer({ rendererDir, implementation: burrow.implementation, events: burrow.events }),
    launchChromium(),
  ]);
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: 15_000 });
    await expect.poll(() => server.openStreams()).toBe(1);
    const theme = () => page.evaluate('document.documentElement.dataset.theme ?? null');
    expect(await theme()).toBeNull();

    // More than the kernel takes at once (4 MiB at most) and the server holds (4 MiB): dropped.
    burrow.events.emit('api.progress', { requestId: 'x'.repeat(16 << 20), loaded: 0, pages: 0 });
    expect(server.openStreams()).toBe(0);
    // Told to no stream: the page learns it only by asking again once it is back.
    burrow.settings.update({ theme: 'dark' });

    await expect.poll(theme, { timeout: 10_000 }).toBe('dark');
    expect(server.openStreams()).toBe(1);
  } finally {
    await browser.close();
    await server.close();
  }
});
