import { spawn } from 'node:child_process';
import { builtBurrow } from '../../../support/built-cli.ts';
import { createApiClient } from '../../../../core/api/client.ts';
import type { SnapshotDocument } from '../../../../shared/app/snapshot-document.ts';
import { snapshotDocument } from '../../../support/snapshot-documents.ts';
import { startSandbox, type Sandbox } from '../api/support.ts';

/** One sandbox, two accounts, one key each: two keys on one address are two accounts. */
export async function twoAccounts(cleanup: (() => Promise<unknown>)[]) {
  const keys = ['key-of-a', 'key-of-b'] as const;
  const sandbox = await startSandbox({
    accounts: {
      accounts: keys.map((key, i) => ({
        name: `account-${i}`,
        users: [{ id: `usr_${i === 0 ? 'a' : 'b'}`, admin: true, api_keys: [key] }],
      })),
    },
    rateLimit: 'off',
  });
  cleanup.push(() => sandbox.close());
  // Polled while an apply runs: far more often than the service's own limit allows.
  const rateLimit = { requests: 10_000, windowMs: 1_000 };
  const clients = keys.map((apiKey) =>
    createApiClient({ baseUrl: sandbox.url, apiKey, rateLimit }),
  );
  cleanup.push(async () => Promise.all(clients.map((c) => c.close())));
  /** The IP policies account `i` holds, by description. */
  const policies = async (i: 0 | 1) =>
    (await clients[i]?.listAll('ipPolicies.list'))?.map((p) => p.description) ?? [];
  return { sandbox, keys, clients, policies };
}

/** A snapshot of `n` IP policies and nothing else, as a file would hold it. */
export function policiesSnapshot(n: number, apiUrl = 'http://127.0.0.1:1'): SnapshotDocument {
  const ipPolicy = Array.from({ length: n }, (_, i) => ({
    name: `ipPolicy/p${String(i).padStart(2, '0')}`,
    id: `ipp_source${i}`,
    fields: { description: `p${String(i).padStart(2, '0')}` },
  }));
  return snapshotDocument({ ipPolicy }, { source: { apiUrl } });
}

/** Writes take this long, so that a kill or a second apply lands in the middle of one. */
export function slowWrites(sandbox: Sandbox, latencyMs: number): void {
  sandbox.faults.add({ kind: 'latency', latencyMs, method: 'POST' });
}

export type Finished = {
  code: number | null;
  signal: string | null;
  stderr: string;
  stdout: string;
};

/** The real `burrow` in a process of its own, the key in its environment. */
export function startBurrow(argv: readonly string[], apiKey: string) {
  const child = spawn(process.execPath, [builtBurrow(), ...argv], {
    env: { ...process.env, BURROW_DATA_DIR: undefined, BURROW_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const finished = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, ...out })),
  );
  return { child, finished };
}

/** Resolves once `check` holds, looking every 25 ms; fails after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
