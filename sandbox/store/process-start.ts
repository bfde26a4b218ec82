import { readFile } from 'node:fs/promises';

/**
 * When process `pid` started, in clock ticks since boot (Linux: field 22 of /proc/PID/stat), or
 * undefined where that cannot be read (no /proc, the process gone). Two processes that share a
 * pid one after the other never share it: a pid plus this names one process.
 */
export async function processStart(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[22 - 3];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}
