/** A moment of today as a person reads it on this machine's clock: `09:05`. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** A length of time as a person says it: "23 hours 59 minutes", "2 days 1 hour", "45 seconds". */
export function duration(seconds: number): string {
  const parts: string[] = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ] as const) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  // Seconds only matter while there is less than a minute.
  if (parts.length === 0) parts.push(`${left} second${left === 1 ? '' : 's'}`);
  return parts.slice(0, 2).join(' ');
}
