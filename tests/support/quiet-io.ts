import type { Io } from '../../cli/io.ts';

/** A terminal-less Io that drops what a command writes, for tests that read its return instead. */
export function quietIo(cwd: string): Io {
  const quiet = { write: () => true };
  return { stdout: quiet, stderr: quiet, env: {}, isTTY: { stdin: false, stderr: false }, cwd };
}
