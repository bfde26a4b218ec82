import type { SnapshotKind } from '../../../shared/app/snapshot-document.ts';

/** What a name is made for: the resource's words, and its fields for telling look-alikes apart. */
export type NameCandidate = {
  readonly id: string;
  readonly label: readonly unknown[];
  /** The resource's fields as canonical JSON, references already as names. */
  readonly content: string;
  /** Routes: the name of their edge, which goes in front of theirs. */
  readonly prefix?: string;
};

const MAX_SLUG = 48;

export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/[-.]+$/, '');
}

function baseName(kind: SnapshotKind, candidate: NameCandidate): string {
  const words = candidate.label.find((w) => typeof w === 'string' && slug(w) !== '');
  const own = typeof words === 'string' ? slug(words) : 'unnamed';
  const prefix = candidate.prefix === undefined ? '' : `${candidate.prefix.split('/')[1]}/`;
  return `${kind}/${prefix}${own}`;
}

/**
 * A local name for each resource of one kind: `kind/slug`, and `-2`, `-3`… for look-alikes, in
 * the order of their content and then their id. Only look-alikes with equal content are ordered
 * by id, and those are interchangeable, so another account holding the same resources gets the
 * same names for them.
 */
export function nameResources(
  kind: SnapshotKind,
  candidates: readonly NameCandidate[],
): Map<string, string> {
  const byBase = new Map<string, NameCandidate[]>();
  for (const candidate of candidates) {
    const base = baseName(kind, candidate);
    const group = byBase.get(base);
    if (group) group.push(candidate);
    else byBase.set(base, [candidate]);
  }
  const names = new Map<string, string>();
  const used = new Set(byBase.keys());
  for (const base of [...byBase.keys()].sort()) {
    const group = byBase.get(base) ?? [];
    const ordered = [...group].sort(
      (a, b) =>
        (a.content < b.content ? -1 : a.content > b.content ? 1 : 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    let n = 1;
    for (const [i, candidate] of ordered.entries()) {
      if (i === 0) {
        names.set(candidate.id, base);
        continue;
      }
      // "office" twice and an "office 2" of its own: the second office becomes office-3.
      do n += 1;
      while (used.has(`${base}-${n}`));
      used.add(`${base}-${n}`);
      names.set(candidate.id, `${base}-${n}`);
    }
  }
  return names;
}
