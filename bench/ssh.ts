/**
 * core/ssh's own cost, next to ssh-keygen doing the same work in the same run:
 * - an ed25519 key generated, signed by a CA through the API client (the sandbox over loopback)
 *   and saved as three files, against `ssh-keygen -t ed25519` plus `ssh-keygen -s` with a local
 *   CA key (process starts included: that is what running them costs);
 * - the longest the main event loop stalls while RSA-4096 keys are generated, signed and saved
 *   (perf_hooks.monitorEventLoopDelay), against generating one on the main thread.
 * (bench/ssh-signing.ts measures the sandbox's signing alone.)
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { createApiClient } from '../core/api/client.ts';
import { createSshService } from '../core/ssh/service.ts';
import type { GenerateRequest } from '../shared/app/ssh/requests.ts';
import { startSandbox } from '../sandbox/index.ts';
import { median, timeEach } from './timing.ts';

const run = promisify(execFile);
const ED25519_SAMPLES = 40;
const KEYGEN_SAMPLES = 15;
const RSA_RUNS = 5;
const BUDGET = { ed25519Ms: 50, loopDelayMs: 20 };

const verdict = (value: number, budget: number) =>
  value <= budget ? `within the ${budget} ms budget` : `OVER the ${budget} ms budget`;

type Measured = { readonly elapsedMs: number; readonly maxMs: number };

/** The longest the event loop was kept waiting while `work` ran, and how long it ran. */
async function loopDelayDuring(work: () => Promise<unknown>): Promise<Measured> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const started = performance.now();
  histogram.enable();
  await work();
  histogram.disable();
  return { elapsedMs: performance.now() - started, maxMs: histogram.max / 1e6 };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-bench-ssh-'));
  const sandbox = await startSandbox({ apiKey: 'bench-ssh-core', rateLimit: 'off' });
  const api = createApiClient({
    baseUrl: sandbox.url,
    apiKey: 'bench-ssh-core',
    rateLimit: { requests: 1e6, windowMs: 1000 },
  });
  const values = new Map<string, unknown>();
  const service = createSshService({
    api,
    store: { get: (k) => values.get(k), set: (k, v) => values.set(k, v) },
    home: dir,
  });
  try {
    const ca = await api.sshCertificateAuthorities.create({ private_key_type: 'ed25519' });
    const caFile = path.join(dir, 'local-ca');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ca', '-f', caFile]);
    let n = 0;
    const request = (key: GenerateRequest['key']): GenerateRequest => ({
      key,
      target: { name: `key-${++n}` },
      certificate: { caId: ca.id, principals: ['bench'], validity: { preset: '1h' } },
    });
    const keygenFlow = async (args: string[]) => {
      const file = path.join(dir, `keygen-${++n}`);
      await run('ssh-keygen', ['-q', ...args, '-N', '', '-C', 'bench', '-f', file]);
      await run('ssh-keygen', [
        '-q',
        '-s',
        caFile,
        '-I',
        'bench',
        '-n',
        'bench',
        '-V',
        '+1h',
        `${file}.pub`,
      ]);
    };

    const oursMs = await timeEach(ED25519_SAMPLES, () =>
      service.generateKeyAndCertificate(request({ type: 'ed25519' })),
    );
    const keygenMs = await timeEach(KEYGEN_SAMPLES, () => keygenFlow(['-t', 'ed25519']));
    console.log(
      `ed25519 generate+sign+save: median ${oursMs.toFixed(1)} ms, ${verdict(oursMs, BUDGET.ed25519Ms)} ` +
        `(ssh-keygen -t ed25519 then -s: ${keygenMs.toFixed(1)} ms; ${(oursMs / keygenMs).toFixed(2)}× of it)`,
    );

    // Each key on its own, each followed by the same stretch of time with nothing to do: what
    // the machine itself adds (a shared box descheduling the process shows up there too). The
    // figure is the median of the per-key maxima, so one hiccup of the machine does not make it.
    const busy: Measured[] = [];
    const idle: Measured[] = [];
    for (let i = 0; i < RSA_RUNS; i++) {
      const one = await loopDelayDuring(() =>
        service.generateKeyAndCertificate(request({ type: 'rsa', bits: 4096 })),
      );
      busy.push(one);
      idle.push(
        await loopDelayDuring(() => new Promise((resolve) => setTimeout(resolve, one.elapsedMs))),
      );
    }
    const rsaMs = median(busy.map((m) => m.elapsedMs));
    const maxMs = median(busy.map((m) => m.maxMs));
    const worst = (ms: Measured[]) => Math.max(...ms.map((m) => m.maxMs)).toFixed(1);
    const onMainThread = await loopDelayDuring(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      generateKeyPairSync('rsa', { modulusLength: 4096 });
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    const rsaKeygenMs = await timeEach(RSA_RUNS, () => keygenFlow(['-t', 'rsa', '-b', '4096']), 0);
    console.log(
      `event-loop delay during RSA-4096 generation: max ${maxMs.toFixed(1)} ms, ${verdict(maxMs, BUDGET.loopDelayMs)} ` +
        `(median of ${RSA_RUNS} keys generated, signed and saved, worst ${worst(busy)} ms; ` +
        `idle loop over the same times: ${median(idle.map((m) => m.maxMs)).toFixed(1)} ms, worst ${worst(idle)} ms; ` +
        `generating on the main thread instead: ${onMainThread.maxMs.toFixed(0)} ms)`,
    );
    console.log(
      `RSA-4096 generate+sign+save: median ${rsaMs.toFixed(0)} ms ` +
        `(ssh-keygen -t rsa -b 4096 then -s: ${rsaKeygenMs.toFixed(0)} ms; ${(rsaMs / rsaKeygenMs).toFixed(2)}× of it; RSA generation time varies widely by luck)`,
    );
  } finally {
    await service.close();
    await api.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
