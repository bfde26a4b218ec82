import { main } from '../../../cli/main.ts';

export type Run = { code: number; stdout: string; stderr: string };

/** `burrow ARGV` in this process, nothing on a terminal; its output captured. */
export async function burrow(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
  cwd = '/',
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
    isTTY: { stdin: false, stderr: false },
    cwd,
  });
  return { code, stdout, stderr };
}
