import { readFileSync } from 'node:fs';

/**
 * When process `pid` started, in clock ticks since boot (Linux: field 22 of /proc/PID/stat), or
 * undefined where that cannot be read (no /proc, the process gone). Two processes that share a
 * pid one after the other never share it: a pid plus this names one process.
 */
export function processStart(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[22 - 3];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}
