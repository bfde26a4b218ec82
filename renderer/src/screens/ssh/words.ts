/** The file names of paths, as a sentence names them: "id_ed25519, id_ed25519.pub". */
export function fileNames(paths: readonly string[]): string {
  return paths.map((p) => p.split(/[\\/]/).pop() ?? p).join(', ');
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
