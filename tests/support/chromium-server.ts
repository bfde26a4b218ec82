/**
 * e2e-window's global setup: one Chromium for all the project's files, which connect to it
 * (`launchChromium` in tests/e2e/web/support-window.ts) and work in contexts of their own, as
 * separate from each other's as separate browsers are. Starting and closing a Chromium for each
 * file cost about 1.8 s of CPU a file.
 */
import { chromium } from 'playwright';
import type { TestProject } from 'vitest/node';
import { chromiumArgs, headlessShellExecutable } from './chromium.ts';

/** The name the endpoint is provided under, for `inject`. */
export const CHROMIUM_ENDPOINT = 'chromiumEndpoint';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the project's Chromium listens; absent where none was started for the run. */
    chromiumEndpoint?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: headlessShellExecutable,
    args: chromiumArgs,
  });
  project.provide(CHROMIUM_ENDPOINT, server.wsEndpoint());
  return () => server.close();
}
