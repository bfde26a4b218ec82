import { defineConfig } from '@playwright/test';

/** The real Electron app, driven by Playwright; see app.spec.ts for when it runs. */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  workers: 1,
  // Its own folder: Playwright empties outputDir at start, and test-results/ holds the other reports.
  outputDir: '../../test-results/electron-artifacts',
  reporter: [['list'], ['json', { outputFile: '../../test-results/electron.json' }]],
});
