/**
 * Real agent processes for the agent tests: `npm run agent`'s script, spawned the way
 * cli.test.ts spawns the sandbox's. A restarted agent is a new process (not our child) that
 * writes to the same stdout, so every `pid <n>` line is tracked and killAll() reaches them all.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type ErrorName } from '../../shared/api/errors/errors.ts';
import type { ApiReply } from './sandbox-client.ts';
import { bin } from './bins.ts';

export type AgentProcess = {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pids: number[];
  readonly sessions: string[];
  stdout(): string;
  stderr(): string;
  /** The n-th `session <id> online` line (0 is the first), waiting for it. */
  session(n: number, timeoutMs?: number): Promise<string>;
  /**
   * Waits for `text` on stdout. A child's `exit` can come before the last of its output has
   * been read from the pipe, so a line printed just before exiting is waited for, not read.
   */
  said(text: string, timeoutMs?: number): Promise<void>;
  /** The exit of the process we spawned (not of its successors). */
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const started: AgentProcess[] = [];

export function startAgent(args: readonly string[]): AgentProcess {
  const child = spawn(process.execPath, [bin('agent-cli'), ...args], {
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  const pids: number[] = [];
  const sessions: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    const before = stdout.length;
    stdout += chunk.toString();
    // Scan from the start of the last incomplete line.
    const from = stdout.lastIndexOf('\n', before - 1) + 1;
    for (const line of stdout.slice(from).split('\n').slice(0, -1)) {
      const pid = /^pid (\d+)$/.exec(line)?.[1];
      if (pid) pids.push(Number(pid));
      const session = /^session (ts_\w+) online$/.exec(line)?.[1];
      if (session) sessions.push(session);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const agent: AgentProcess = {
    child,
    pids,
    sessions,
    stdout: () => stdout,
    stderr: () => stderr,
    session: async (n, timeoutMs = 60_000) => {
      await until(
        () => sessions.length > n,
        timeoutMs,
        () => `session #${n}: ${stdout}${stderr}`,
      );
      return sessions[n] ?? '';
    },
    said: async (text, timeoutMs = 10_000) => {
      await until(
        () => stdout.includes(text),
        timeoutMs,
        () => `for "${text}": ${stdout}${stderr}`,
      );
    },
    exit,
  };
  started.push(agent);
  return agent;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `pid` is still an agent process of ours. A pid is used again once its process is gone
 * (Linux hands out 32,768 of them, round in minutes while the suites run side by side), and a
 * successor that exited long ago may have left its number to a test worker: a kill by a stale
 * pid once took down an integration worker. Where there is no /proc, whatever is alive.
 */
function isAgentProcess(pid: number): boolean {
  if (!existsSync('/proc/self/cmdline')) return isAlive(pid);
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(bin('agent-cli'));
  } catch {
    return false;
  }
}

/** SIGKILLs an agent we started and its successors, whichever of them still run. */
export function killAgent(agent: AgentProcess): void {
  // Node signals its own child only until it has seen it exit: never a reused pid.
  agent.child.kill('SIGKILL');
  for (const pid of agent.pids.slice(1)) if (isAgentProcess(pid)) process.kill(pid, 'SIGKILL');
}

/** SIGKILLs every agent process the tests started, successors included. */
export function killAll(): void {
  for (const agent of started.splice(0)) killAgent(agent);
}

/**
 * Kills `agent` -9 (its first process), then has `monitor` poll until `seen()` holds: the app
 * has noticed, within 20 s.
 */
export async function killUntilSeen(
  agent: AgentProcess,
  monitor: { pollNow(): Promise<unknown> },
  seen: () => boolean | Promise<boolean>,
): Promise<void> {
  agent.child.kill('SIGKILL');
  await until(async () => {
    await monitor.pollNow();
    return seen();
  }, 20_000);
}

/** Polls `check` every 25 ms; fails with `describe()` after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  describe: () => string = () => '',
): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs)
      throw new Error(`not within ${timeoutMs} ms ${describe()}`);
    await sleep(25);
  }
  return performance.now() - start;
}

export function isError(reply: ApiReply, name: ErrorName): boolean {
  return reply.status === ERRORS[name].status && reply.body?.error_code === ERRORS[name].code;
}
