/**
 * A label ("IP policies", "Tunnel credentials") inside a sentence: its first letter lower-cased
 * unless its first word is an abbreviation, which keeps its capitals ("SSH credentials", not
 * "ssh credentials"; "HTTP response backends", not "http response backends").
 */
export function midSentence(label: string): string {
  const first = /^[^\s-]+/.exec(label)?.[0] ?? '';
  if (/[A-Z].*[A-Z]/.test(first)) return label;
  return label.charAt(0).toLowerCase() + label.slice(1);
}
