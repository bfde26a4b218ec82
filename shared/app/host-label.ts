/**
 * A service's name as one DNS label (lower case, letters, digits and hyphens): the first label
 * of the host it is suggested at, and the value of its default `service=` label.
 */
export function hostLabel(name: string): string {
  const label = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return label || 'service';
}
