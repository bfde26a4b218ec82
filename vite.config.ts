import { svelte } from '@sveltejs/vite-plugin-svelte';
import { playwright } from '@vitest/browser-playwright';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InlineConfig } from 'vitest/node';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { CONTENT_SECURITY_POLICY_META } from './core/security/csp.ts';
import { BUILT_THREADS_ENV } from './core/threads.ts';
import { TEST_BIN_DIR } from './tests/support/bins.ts';
import { chromiumArgs, headlessShellExecutable } from './tests/support/chromium.ts';
import { SlowestFirst } from './tests/support/slowest-first.ts';

const repo = fileURLToPath(new URL('.', import.meta.url));

/**
 * A project of tests/<name>/ run in Node. Vitest's default leaves one core to itself: on two
 * cores that is one file at a time. For e2e, two Chromiums or spawned apps at once: a third was
 * no faster here, and made a busy machine's page clicks time out.
 */
function nodeProject(name: string, test: InlineConfig): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      root: repo,
      include: [`tests/${name}/**/*.test.ts`],
      environment: 'node',
      maxWorkers: 2,
      ...test,
    },
  };
}

/**
 * Integration files that need a process of their own: opening a snapshot in a worker thread hangs
 * (the test times out) when the file shares its worker's modules with other files; the 1,000
 * agents of the monitor's scale test twice took down the worker they shared with other files
 * ("Worker exited unexpectedly", with the suites side by side), and alone they never have.
 */
const INTEGRATION_ISOLATED = [
  'tests/integration/core/snapshot/open-worker.test.ts',
  'tests/integration/core/monitor/scale.test.ts',
];

/**
 * Real servers and spawned processes: two minutes for a test or a hook, and ten seconds for a
 * polled expectation (the default second is one slow tick of a loaded two-core machine). These
 * are backstops: a test that waits on real processes waits for what they say, and passes in a
 * fraction of this alone; beside other work, the same test has taken over a minute.
 */
const slow = { testTimeout: 120_000, hookTimeout: 120_000, expect: { poll: { timeout: 10_000 } } };

/**
 * Core and the sandbox in the test's process: their worker threads start from the built entries
 * (core/threads.ts says why), built once for the run as the e2e projects' are. Three workers: this
 * is `npm test`'s longest step, and its files that wait on real processes and windows (a rollout's
 * 10 s) left a core idle at the end of the run with two.
 */
const inProcess = {
  ...slow,
  maxWorkers: 3,
  globalSetup: ['tests/support/build-once.ts'],
  env: { [BUILT_THREADS_ENV]: join(repo, TEST_BIN_DIR) },
};

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [
    // Options live here rather than in a svelte.config.js: the renderer's root is renderer/.
    svelte({
      configFile: false,
      // Runes for our components only: libraries (e.g. Testing Library's scaffold) may be legacy.
      dynamicCompileOptions: ({ filename }) =>
        filename.includes('/node_modules/') ? undefined : { runes: true },
    }),
    {
      name: 'burrow-csp',
      // Only in the built page: the dev server and Vitest's browser runner inject inline code.
      apply: 'build',
      // One policy, written once (core/security/csp.ts), also guards pages opened from disk.
      transformIndexHtml: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY_META },
          injectTo: 'head-prepend',
        },
      ],
    },
  ],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Electron 45 ships Chromium 142+; the web mode needs any evergreen browser.
    target: 'es2023',
  },
  test: {
    root: repo,
    sequence: { sequencer: SlowestFirst },
    projects: [
      nodeProject('unit', {
        // Plain modules with no state left behind (fake timers are restored): importing them
        // once per worker instead of once per file makes this project three times as fast.
        isolate: false,
        // Worker threads rather than child processes: 17 s of CPU instead of 20 (same run, two
        // runs each), and no test here changes the process (cwd, umask) a thread would share.
        pool: 'threads',
      }),
      // The sandbox and core in the test's own process, over loopback HTTP. Not isolated: each
      // worker imports the sandbox and core once rather than once per file, 168 s of CPU for the
      // project instead of 292 (same tree, same machine), with the same tests passing. Files that
      // do not run so are in integration-isolated.
      nodeProject('integration', { ...inProcess, isolate: false, exclude: INTEGRATION_ISOLATED }),
      nodeProject('integration-isolated', { ...inProcess, include: INTEGRATION_ISOLATED }),
      // The window in Chromium against the real browser-mode app (tests/e2e/web): one Chromium
      // for the project, each file in contexts of its own. Not isolated: each worker imports
      // Playwright, the sandbox and core once rather than once per file (the files start their
      // apps as processes of their own, and stop what they start).
      nodeProject('e2e-window', {
        ...slow,
        include: ['tests/e2e/web/**/*.test.ts'],
        globalSetup: ['tests/support/build-once.ts', 'tests/support/chromium-server.ts'],
        setupFiles: ['tests/e2e/web/setup.ts'],
        isolate: false,
      }),
      // Spawned processes as built by scripts/build-test.ts: CLIs, agents, the booted main
      // process. Mostly waiting on real timers (an update's 10 s), so `npm test` runs them
      // beside the window's Chromiums rather than after them. Not isolated, as e2e-window.
      nodeProject('e2e-processes', {
        ...slow,
        include: ['tests/e2e/**/*.test.ts'],
        exclude: ['tests/e2e/web/**'],
        globalSetup: ['tests/support/build-once.ts'],
        isolate: false,
      }),
      // The app packaged by electron-builder and booted from its asar (tests/package/).
      nodeProject('package', { ...slow, globalSetup: ['tests/support/build-once.ts'] }),
      {
        extends: true,
        test: {
          name: 'browser',
          root: repo,
          // Not isolated: the files run one after another in one page, not each in a page of its
          // own that loads the renderer's modules again (tests/browser/setup.ts starts each file
          // as on a fresh page).
          isolate: false,
          include: ['tests/browser/**/*.test.ts'],
          setupFiles: ['tests/browser/setup.ts'],
          browser: {
            enabled: true,
            headless: true,
            // The headless shell, as e2e-window's: 66 core-seconds for this project against 82 in
            // the full browser (same tests, same machine). Like Electron, it lets a page write to
            // the clipboard only when granted, as the app grants its own page (core/ipc/sender.ts).
            provider: playwright({
              launchOptions: { executablePath: headlessShellExecutable, args: chromiumArgs },
              contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] },
            }),
            instances: [{ browser: 'chromium' }],
            // The window's own default size; tests of the narrow layout set theirs.
            viewport: { width: 1280, height: 800 },
          },
          maxWorkers: 2,
          // `npm test` runs this beside the e2e project's Chromiums and spawned apps: a render that
          // takes a tenth of a second alone can take seconds there.
          testTimeout: 30_000,
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
