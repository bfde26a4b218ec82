import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../../cli/main.ts';
import type { Clock } from '../../../shared/node/clock.ts';

export type Run = { code: number; stdout: string; stderr: string };

export type RunOptions = {
  readonly env?: Record<string, string | undefined>;
  /** Given: stdin is a terminal that answers this. */
  readonly answer?: string;
  readonly stderrIsTTY?: boolean;
  readonly cwd?: string;
  readonly keychainService?: string;
  readonly signal?: AbortSignal;
  /** Sees stdout as it is written (a watch). */
  readonly onStdout?: (all: string) => void;
  /** Sees stderr as it is written (a wait said while it lasts). */
  readonly onStderr?: (all: string) => void;
  /** The clock of the command's API clients (a test's, shared with its sandbox). */
  readonly clock?: Clock;
};

/** `burrow ARGV` in this process, its output captured; stdin is no terminal unless it answers. */
export async function burrow(argv: readonly string[], options: RunOptions = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: {
      write: (text: string) => {
        stdout += text;
        options.onStdout?.(stdout);
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
        options.onStderr?.(stderr);
      },
    },
    ...(options.answer !== undefined && { stdin: Readable.from([options.answer]) }),
    env: { BURROW_DATA_DIR: undefined, ...options.env },
    isTTY: { stdin: options.answer !== undefined, stderr: options.stderrIsTTY === true },
    cwd: options.cwd ?? tmpdir(),
    ...(options.keychainService !== undefined && { keychainService: options.keychainService }),
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.clock !== undefined && { clock: options.clock }),
  });
  return { code, stdout, stderr };
}

/** A folder removed by `cleanup`. */
export async function tempDir(cleanup: (() => Promise<unknown>)[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'burrow-cli-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Exactly one line on stderr, and it holds every one of `parts`. */
export function oneLine(run: Run, ...parts: string[]): void {
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got:\n${run.stderr}`);
  for (const part of parts)
    if (!run.stderr.includes(part)) throw new Error(`"${part}" is not in: ${run.stderr}`);
}
