/**
 * `npm run bench:ui`: 10,000 failover backends in the real window, each row showing its children
 * by their descriptions (references resolved through the window's one cache). A sandbox with no
 * rate limit is seeded, `npm run web` is started on a throwaway HOME (it needs the keyring of a
 * D-Bus session, as the integration tests do: run it inside one), the sandbox is added as a
 * profile through Settings, and Chromium measures:
 *
 * - first render: from opening Failover backends to the first rows painted with their children
 *   named (one page of 100 through the real IPC and API client, and the children's list), as a
 *   ratio to those calls alone, sent at once from the same page just before each visit: the median
 *   of nine visits, each from Settings on a page just loaded, so that the window's code and its
 *   cache of names are cold every time;
 * - scroll frames: the time between animation frames while the list of all 10,000 scrolls by
 *   400 px a frame (a fling), against the same page's frames while nothing moves;
 * - API requests: what the list and its references cost at the sandbox, after the first page
 *   and after every row was shown: the lookups must not grow with the rows;
 * - renderer JS: the built renderer's scripts, gzipped;
 * - the command palette over those resources (bench/ui-palette.ts).
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { framesOf as measureFrames, median, quantile } from './timing.ts';
import { createApiClient } from '../core/api/client.ts';
import { RateGovernor } from '../core/api/governor.ts';
import { startSandbox } from '../sandbox/index.ts';
import { PAGE_SECRET_HEADER } from '../shared/app/ipc/browser-mode.ts';
import { measurePalette } from './ui-palette.ts';
import { openBenchWindow } from './window.ts';

const API_KEY = 'bench-ui-key';
const ITEMS = 10_000;
const CHILDREN = 20;
const FRAMES = 240;
/** First renders measured, each on a page just loaded. */
const VISITS = 9;
/** How long a page just loaded is left to settle before its calls and its visit are timed. */
const SETTLE_MS = 500;
const BUDGET = { renderPerApi: 1.2, scrollP95Ms: 17, jsKb: 150 };
const FRAME_MS = 1000 / 60;

const sandbox = await startSandbox({ apiKey: API_KEY, rateLimit: 'off' });
const seeder = createApiClient({
  baseUrl: sandbox.url,
  apiKey: API_KEY,
  governor: new RateGovernor({ limit: { requests: 1e9, windowMs: 1 } }),
  transport: { connections: 16 },
});
const seededAt = performance.now();
const children: string[] = [];
for (let i = 0; i < CHILDREN; i += 1)
  children.push(
    (await seeder.httpResponseBackends.create({ description: `child ${i}`, body: `${i}` })).id,
  );
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < ITEMS) {
      next += 1;
      const first = next % CHILDREN;
      await seeder.failoverBackends.create({
        description: `failover ${next}`,
        backends: [children[first] ?? '', children[(first + 1) % CHILDREN] ?? ''],
      });
    }
  }),
);
await seeder.close();
console.log(
  `seeded ${ITEMS} failover backends in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`,
);

// The sandbox runs in this process: every request it serves, by collection, from here on.
const served = { failover: 0, children: 0, other: 0 };
subscribe('http.server.request.start', (message) => {
  const url = (message as { request: IncomingMessage }).request.url ?? '';
  if (url.startsWith('/backends/failover')) served.failover += 1;
  else if (url.startsWith('/backends/http_response')) served.children += 1;
  else if (!url.startsWith('/tunnel_sessions')) served.other += 1;
});

const app = await openBenchWindow({ width: 1200, height: 800 });
try {
  const { page } = app;
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Name').fill('Bench');
  await page.getByLabel('API address').fill(sandbox.url);
  await page.getByLabel('API key').fill(API_KEY);
  await page.getByRole('button', { name: 'Add profile' }).click();
  await page.getByRole('button', { name: 'Switch to Bench' }).click();
  await page.getByRole('row', { name: /Bench.*active/ }).waitFor();

  // The baseline, in the same run: the calls the first render needs (its first page and the
  // list of each kind its rows refer to), sent at once through the tab's own bridge endpoint and
  // answered, with nothing drawn; twice, the first to warm the path, the second timed.
  const callsAlone = () =>
    page.evaluate<number>(`(async () => {
      const call = (name, request) => fetch('/ipc/invoke', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ${JSON.stringify(PAGE_SECRET_HEADER)}: sessionStorage.getItem('burrow.pageSecret'),
        },
        body: JSON.stringify({ name, args: [request] }),
      }).then((r) => r.json());
      let took = 0;
      for (let i = 0; i < 2; i += 1) {
        const started = performance.now();
        await Promise.all([
          call('api.failoverBackends.list', { query: { limit: 100 } }),
          call('api.httpResponseBackends.listAll', { priority: 'background' }),
          call('api.tunnelGroupBackends.listAll', { priority: 'background' }),
        ]);
        took = performance.now() - started;
      }
      return took;
    })()`);

  // Each first render on a page just loaded, from Settings as a person comes to it: the window's
  // code and its cache of names start cold each time, as at the first visit after the app starts.
  // Each is paired with the calls alone, timed on the same settled page just before it: a busy
  // two-core machine changes speed from one second to the next (the calls alone took 33 ms in one
  // run and 51 in the next), and a baseline taken once, before all the visits, counted that drift
  // against the window. Timed on a page still loading, the calls took 40 ms and flattered it.
  const visits: { calls: number; rows: number; named: number }[] = [];
  // What the sandbox had served as the last visit began: its requests are the first page's.
  let before = { ...served };
  for (let visit = 0; visit < VISITS; visit += 1) {
    // Loaded at Settings: loaded at the list, it would fill the window's cache of names.
    await page.evaluate(`window.location.hash = '#/settings'`);
    await page.reload();
    await page.getByRole('row', { name: /Bench.*active/ }).waitFor();
    // Settled: a page just loaded is still asking for its state and opening its event stream.
    await page.waitForTimeout(SETTLE_MS);
    const calls = await callsAlone();
    before = { ...served };
    // Strings, not functions: tsx would wrap named arrows in a helper the page does not have.
    // The backends' own rows, their children named: the table of the screen before could still
    // be in the DOM.
    const [rows, named] = await page.evaluate<[number, number]>(`new Promise((resolve, reject) => {
      const started = performance.now();
      let rows;
      window.location.hash = '#/backends/failoverBackends';
      const look = () => {
        const row = document.querySelector('table[aria-label="Failover backends"] tbody tr:not(.spacer)');
        if (row) rows ??= performance.now() - started;
        if (row && row.textContent.includes('child ')) resolve([rows, performance.now() - started]);
        else if (performance.now() - started > 30000) reject(new Error('no named row in 30 s'));
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    })`);
    visits.push({ calls, rows, named });
  }
  const firstPage = {
    failover: served.failover - before.failover,
    children: served.children - before.children,
  };
  const apiMs = median(visits.map((v) => v.calls));
  const firstRows = median(visits.map((v) => v.rows));
  const firstRender = median(visits.map((v) => v.named));
  // Each visit against its own calls: what the render adds to them, at most a fifth plus the
  // frame it paints in. The median visit holds it, or the budget is missed.
  const overBudget = median(
    visits.map((v) => v.named / (v.calls * BUDGET.renderPerApi + FRAME_MS)),
  );

  await page.getByRole('button', { name: 'Load all' }).click();
  await page.getByText(`${ITEMS} shown`, { exact: true }).waitFor({ timeout: 120_000 });

  const framesOf = (scroll: number) => measureFrames(page, '.scroller', scroll, FRAMES);
  // The baseline, in the same run: the same page's frames while nothing moves.
  const idle = await framesOf(0);
  const frames = await framesOf(400);
  const shown = await page.evaluate<string | undefined>(
    `[...document.querySelectorAll('table[aria-label="Failover backends"] tr[aria-rowindex]')].at(-1)?.getAttribute('aria-rowindex')`,
  );
  const all = {
    failover: served.failover - before.failover,
    children: served.children - before.children,
  };
  const at = (q: number) => quantile(frames, q);
  const vsync = quantile(idle, 0.5);
  const dropped = frames.filter((f) => f > vsync * 1.5).length;

  const assets = join('dist', 'renderer', 'assets');
  let gzipBytes = 0;
  for (const file of await readdir(assets))
    if (file.endsWith('.js')) gzipBytes += gzipSync(await readFile(join(assets, file))).length;
  const jsKb = gzipBytes / 1024;

  const ms = (n: number) => n.toFixed(1);
  console.log(
    `first render ${ms(firstRender)} ms with references resolved, ${(firstRender / apiMs).toFixed(2)}x ` +
      `the ${ms(apiMs)} ms of the calls it needs; each visit against its own calls: ${overBudget.toFixed(2)} of ` +
      `the budget (${BUDGET.renderPerApi}x + one frame); rows ${ms(firstRows)} ms; medians of ${VISITS} cold ` +
      `visits (${visits.map((v) => `${v.named.toFixed(0)} of ${v.calls.toFixed(0)}`).join(', ')} ms)`,
  );
  console.log(
    `scroll frames median ${ms(at(0.5))} ms, p95 ${ms(at(0.95))} ms (budget p95 ${BUDGET.scrollP95Ms} ms); ` +
      `${dropped} of ${FRAMES} frames dropped; idle page p95 ${ms(quantile(idle, 0.95))} ms (${(at(0.95) / quantile(idle, 0.95)).toFixed(2)}x)`,
  );
  console.log(`renderer JS ${jsKb.toFixed(1)} KB gzip (budget ${BUDGET.jsKb} KB)`);
  console.log(
    `API requests of the list: first page ${firstPage.failover} list + ${firstPage.children} reference lookups; ` +
      `after Load all and the fling (to row ${shown} of ${ITEMS}) ${all.failover} list + ${all.children} reference lookups`,
  );
  // The lookups are one list of the children's kind, however many rows were shown.
  const lookupsGrew = all.children !== firstPage.children;
  if (lookupsGrew) console.log('reference lookups grew with the rows shown');
  const paletteWithin = await measurePalette(page, ITEMS + CHILDREN);
  const over =
    !paletteWithin ||
    overBudget > 1 ||
    at(0.95) > BUDGET.scrollP95Ms ||
    jsKb > BUDGET.jsKb ||
    lookupsGrew;
  process.exitCode = over ? 1 : 0;
} finally {
  await app.close();
  await sandbox.close();
}
