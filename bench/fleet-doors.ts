/**
 * `npm run bench:fleet` (its second part; `-- --quick` for 3 agents): the window and the
 * command line at once on one account at the real 120-a-minute limit. Burrow runs as the app
 * (its monitor, its hub); beside it `burrow rollout` updates the agents a batch at a time while
 * `burrow export` runs every 10 s and `burrow agents` every 2 s. Twice: as separate islands
 * (each command on `--api-url`, a Burrow and a rate budget of its own) and as one system (each
 * command inside the app), then as one system with an export every second, far over the
 * budget. Every 429 is counted by a proxy in front of the sandbox, whoever got it; the rollout's
 * time is a ratio to the same rollout with nothing beside it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBurrow } from '../core/burrow.ts';
import { openConfStore } from '../core/store.ts';
import { startSandbox } from '../sandbox/index.ts';
import { builtBurrow } from '../tests/support/built-cli.ts';
import { agentToken, startAgent } from './fleet.ts';

const QUICK = process.argv.includes('--quick');
const AGENTS = QUICK ? 3 : 6;
const KEY = 'bench-doors';
const PROFILE = { id: 'prf_benchdoors0001', name: 'Staging', kind: 'remote' as const };

/** A loopback proxy in front of `target` that counts the 429s it passes back. */
async function counting429s(target: string) {
  let refused = 0;
  const to = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const out = forward(
      { host: to.hostname, port: to.port, path: incoming.url, method: incoming.method },
      (answer) => {
        if (answer.statusCode === 429) refused++;
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    for (const [name, value] of Object.entries(incoming.headers))
      if (value !== undefined) out.setHeader(name, value);
    incoming.pipe(out);
    out.on('error', () => outgoing.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `burrow ARGS…` as a person would run it, resolving with its exit code. */
function burrowRun(argv: readonly string[], dataDir: string): Promise<number> {
  const child = spawn(process.execPath, [builtBurrow(), ...argv, '--data-dir', dataDir], {
    env: { ...process.env, BURROW_API_KEY: KEY },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

/** `argv` every `everyMs` (after the last one ended) until `stop()`; how many ran. */
function every(everyMs: number, argv: readonly string[], dataDir: string) {
  let running = true;
  let runs = 0;
  const loop = (async () => {
    while (running) {
      await burrowRun(argv, dataDir);
      runs++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return runs;
    },
  };
}

type Case = 'alone' | 'islands' | 'one system' | 'one system, over budget';

async function scenario(which: Case) {
  const sandbox = await startSandbox({ apiKey: KEY });
  const proxy = await counting429s(sandbox.url);
  const token = await agentToken(sandbox.url, KEY);
  const agents = Array.from({ length: AGENTS }, (_, i) =>
    startAgent({ url: sandbox.agentUrl, authtoken: token, metadata: `doors-${i + 1}` }),
  );
  await Promise.all(agents.map((agent) => agent.online(60_000)));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-bench-doors-'));
  const profile = { ...PROFILE, baseUrl: proxy.url };
  await writeFile(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ profiles: [profile], activeProfileId: profile.id }),
  );
  const keys = new Map([[profile.id, KEY]]);
  const app = await createBurrow({
    version: 'bench',
    shell: 'browser',
    dataDir,
    store: await openConfStore(dataDir),
    secrets: {
      get: async (account) => keys.get(account) ?? null,
      set: async (account, secret) => void keys.set(account, secret),
      delete: async (account) => keys.delete(account),
    },
    startLocalSandbox: () => Promise.reject(new Error('no Local sandbox in this bench')),
  });
  // Islands: each command on the address, with a Burrow (and a rate budget) of its own.
  const on = which === 'islands' ? ['--api-url', proxy.url] : [];
  // Over budget: an export every second asks for about five times the account's limit.
  const exportEvery = which === 'one system, over budget' ? 1_000 : 10_000;
  const beside =
    which === 'alone'
      ? []
      : [every(exportEvery, ['export', ...on], dataDir), every(2_000, ['agents', ...on], dataDir)];
  const start = performance.now();
  const rollout = ['rollout', '--name', 'doors-*', '--batch', '1', '--yes', ...on];
  const code = await burrowRun(rollout, dataDir);
  const ms = performance.now() - start;
  const runs = await Promise.all(beside.map((loop) => loop.stop()));
  await app.close();
  await Promise.all(agents.map((agent) => agent.stop()));
  await proxy.close();
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
  return { ms, code, refused: proxy.refused(), exports: runs[0] ?? 0, listings: runs[1] ?? 0 };
}

const alone = await scenario('alone');
console.log(
  `rollout of ${AGENTS} alone beside the app: ${(alone.ms / 1000).toFixed(1)} s, exit ${alone.code}, 429s ${alone.refused}`,
);
for (const which of ['islands', 'one system', 'one system, over budget'] as const) {
  const r = await scenario(which);
  console.log(
    `${which}: rollout ${(r.ms / 1000).toFixed(1)} s, ratio ${(r.ms / alone.ms).toFixed(3)} to alone (≤ 1.10 as one system), exit ${r.code}, 429s ${r.refused} (0 as one system); beside it ${r.exports} exports, ${r.listings} agent listings`,
  );
}
