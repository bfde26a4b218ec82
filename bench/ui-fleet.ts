/**
 * `npm run bench:ui`, its fleet part: 1,000 agents on 5 profiles in the real window. Five
 * sandboxes without a rate limit get 200 connected agents each (the sandbox's own agent, in this
 * process), `npm run web` is started on a throwaway HOME (in a D-Bus session with a keyring, as
 * bench/ui.ts), the five are added as profiles beside its Local sandbox, and Chromium measures:
 *
 * - first render: from opening Sessions (the agents already known to the window) to the first
 *   agent rows painted, grouped under their profiles;
 * - scroll frames: the time between animation frames while the page scrolls the whole fleet by
 *   400 px a frame, against the same page's frames while nothing moves.
 */
import { framesOf as measureFrames, quantile } from './timing.ts';
import { startSandbox } from '../sandbox/index.ts';
import { invokeFrom } from '../tests/e2e/web/support-window.ts';
import { agentToken, startAgent } from './fleet.ts';
import { openBenchWindow } from './window.ts';

const PROFILES = 5;
const AGENTS_EACH = 200;
const FRAMES = 240;
const BUDGET = { firstRenderMs: 150, scrollP95Ms: 17 };
const KEY = 'bench-fleet-key';

const sandboxes = await Promise.all(
  Array.from({ length: PROFILES }, () => startSandbox({ apiKey: KEY, rateLimit: 'off' })),
);
const agents = [];
for (const [p, sandbox] of sandboxes.entries()) {
  const authtoken = await agentToken(sandbox.url, KEY);
  for (let i = 0; i < AGENTS_EACH; i += 1)
    agents.push(
      startAgent({
        url: sandbox.agentUrl,
        authtoken,
        metadata: JSON.stringify({ host: `p${p}-agent-${String(i).padStart(3, '0')}` }),
      }),
    );
}
await Promise.all(agents.map((agent) => agent.online(60_000)));
console.log(`${agents.length} agents online on ${PROFILES} sandboxes`);

const app = await openBenchWindow({ width: 1280, height: 800 }, { sandboxRateLimit: 'off' });
try {
  const { page } = app;
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  for (const [p, sandbox] of sandboxes.entries())
    await invokeFrom(page, 'profiles.add', {
      name: `Fleet ${p}`,
      baseUrl: sandbox.url,
      apiKey: KEY,
    });
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  // Every profile polled once: the window knows all its agents before Sessions opens.
  const known = () =>
    invokeFrom(page, 'agents.snapshot').then((s) =>
      (s as { profiles: { agents: unknown[] }[] }).profiles.reduce(
        (n, p) => n + p.agents.length,
        0,
      ),
    );
  let count = 0;
  for (const deadline = Date.now() + 120_000; count < agents.length;) {
    if (Date.now() > deadline) throw new Error(`the window knows ${count} agents after 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    count = await known();
  }

  const firstRender = await page.evaluate<number>(`new Promise((resolve, reject) => {
    const started = performance.now();
    window.location.hash = '#/sessions';
    const look = () => {
      const rows = document.querySelectorAll('main tbody tr:not(.spacer):not(.group)');
      if (rows.length > 10) resolve(performance.now() - started);
      else if (performance.now() - started > 30000) reject(new Error('no agent rows in 30 s'));
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  })`);
  const rendered = await page.evaluate<number>(
    `document.querySelectorAll('main tbody tr:not(.spacer)').length`,
  );

  const framesOf = (scroll: number) => measureFrames(page, 'main#content', scroll, FRAMES);
  const idle = await framesOf(0);
  const frames = await framesOf(400);
  const scrolled = await page.evaluate<number>(`document.querySelector('main#content').scrollTop`);
  const ms = (n: number) => n.toFixed(1);
  const p95 = quantile(frames, 0.95);
  console.log(
    `fleet first render ${ms(firstRender)} ms for ${count} agents on ${PROFILES + 1} profiles ` +
      `(budget ${BUDGET.firstRenderMs} ms); ${rendered} rows in the page`,
  );
  console.log(
    `fleet scroll frames median ${ms(quantile(frames, 0.5))} ms, p95 ${ms(p95)} ms ` +
      `(budget p95 ${BUDGET.scrollP95Ms} ms); idle page p95 ${ms(quantile(idle, 0.95))} ms ` +
      `(${(p95 / quantile(idle, 0.95)).toFixed(2)}x); scrolled ${Math.round(scrolled)} px`,
  );
  process.exitCode = firstRender > BUDGET.firstRenderMs || p95 > BUDGET.scrollP95Ms ? 1 : 0;
} finally {
  await app.close();
  await Promise.all(agents.map((agent) => agent.stop()));
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
}
