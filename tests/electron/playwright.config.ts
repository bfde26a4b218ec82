import { defineConfig } from '@playwright/test';

/** The real Electron app, driven by Playwright; see app.spec.ts for when it runs. */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
});
