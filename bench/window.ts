/**
 * `npm run web` on a throwaway HOME and a page of Chromium open on it, for the benchmarks of the
 * window. Chromium is launched here rather than through tests/e2e/web/support-window.ts, whose
 * browser comes from the test runner's global setup.
 */
import { chromium, type Page } from 'playwright';
import { chromiumArgs, chromiumExecutable } from '../tests/support/chromium.ts';
import { startWebApp } from '../tests/e2e/web/support-cli.ts';

export async function openBenchWindow(
  viewport: { width: number; height: number },
  options: Parameters<typeof startWebApp>[0] = {},
): Promise<{ page: Page; close(): Promise<void> }> {
  const web = await startWebApp(options);
  const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(web.url);
  return {
    page,
    async close() {
      await browser.close();
      await web.stop();
    },
  };
}
