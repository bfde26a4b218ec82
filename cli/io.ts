import { createInterface } from 'node:readline';
import { BridgeCallError } from '../shared/app/ipc/bridge.ts';
import { escapeControls } from '../shared/app/printable.ts';
import type { Clock } from '../shared/node/clock.ts';
import { ApplyBlockedError } from '../core/snapshot/apply/apply.ts';

type Writable = { write(text: string): unknown };

/** What a command reaches of its process, passed in so that tests run `main()` in-process. */
export type Io = {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Where a confirmation is read; only asked for when `isTTY.stdin`. */
  readonly stdin?: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Progress goes to stderr only when it is a terminal; questions only when stdin is one. */
  readonly isTTY: { readonly stdin: boolean; readonly stderr: boolean };
  readonly cwd: string;
  /** The keychain's service name; tests keep to one of their own, never the person's `burrow`. */
  readonly keychainService?: string;
  /** Ends `sessions --watch` (the executable aborts it on Ctrl-C). */
  readonly signal?: AbortSignal;
  /**
   * Tests only: the clock of the API clients a command builds for itself (their rate limit's
   * cool-downs and retries), so that a test ends a wait when it says rather than after real
   * seconds.
   */
  readonly clock?: Clock;
};

/** A failure worded for a person: one line on stderr, exit 1. */
export class CliError extends Error {
  override name = 'CliError';
}

/** A command line Burrow cannot read: the line, then where to find the usage. */
/** An apply that stopped at a failed step: the same command carries it on. */
export class ApplyStoppedError extends CliError {}

export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly helpFor?: string,
  ) {
    super(message);
  }
}

/**
 * A failure as the lines to print: one, but for what blocks an apply (a list) and a failed step
 * (with how to carry on).
 */
export function failureLines(error: unknown): string[] {
  return linesOf(error).map(escapeControls);
}

function linesOf(error: unknown): string[] {
  if (error instanceof ApplyBlockedError)
    return [
      'Nothing was applied: the plan is blocked',
      ...error.blockers.map((b) => `  ${b.name} ${b.field}: ${b.reason}`),
    ];
  if (error instanceof ApplyStoppedError)
    return [error.message, 'Run the same command again to carry on once the cause is fixed.'];
  if (error instanceof UsageError)
    return [
      `${error.message} (see "burrow ${error.helpFor === undefined ? '' : `${error.helpFor} `}--help")`,
    ];
  // An API error as the door carries it, worded as the client words one: its code and operation.
  if (error instanceof BridgeCallError && error.status !== undefined)
    return [`${error.message} (${[error.code, error.operationId].filter(Boolean).join(', ')})`];
  const message = error instanceof Error ? error.message : String(error);
  return [message.replace(/\s*\n\s*/g, ' ')];
}

/**
 * Asks on stderr and reads one line of stdin; anything but y/yes is a no. Without a terminal to
 * ask on, a command that changes an account needs `--yes`: it never reads a "y" piped in blind.
 */
export async function confirm(io: Io, question: string, what: string): Promise<boolean> {
  if (!io.isTTY.stdin || io.stdin === undefined)
    throw new CliError(
      `${what} asks for confirmation, and its input is not a terminal: pass --yes`,
    );
  io.stderr.write(`${question} [y/N] `);
  const lines = createInterface({ input: io.stdin, terminal: false });
  const answer = await new Promise<string>((resolve) => {
    lines.once('line', resolve);
    lines.once('close', () => resolve(''));
  });
  lines.close();
  return /^\s*y(es)?\s*$/i.test(answer);
}

/** Columns padded to their widest cell, two spaces apart; the cells' control characters escaped. */
export function table(cells: readonly (readonly string[])[]): string {
  const rows = cells.map((row) => row.map(escapeControls));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths?.[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/**
 * Characters JSON may carry raw that a terminal or a reader acts on: controls (C0, DEL, C1, which
 * can move a cursor), line and paragraph separators (which end a line for some JSON readers) and
 * bidi controls (which reorder what is shown). Not the newline: indentation writes it between
 * values, and JSON.stringify already escapes it, like every C0 control, inside strings.
 */
const UNSAFE_IN_JSON = /[^\P{Cc}\n]|[\p{Zl}\p{Zp}\p{Bidi_Control}]/gu;

/**
 * `value` as JSON whose every such character is a `\uXXXX` escape, so that it parses back to
 * exactly `value`. They can only stand inside strings, where the escape means the same.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    UNSAFE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `value` as indented JSON on stdout. */
export function writeJson(io: Io, value: unknown): void {
  io.stdout.write(`${jsonText(value, 2)}\n`);
}
