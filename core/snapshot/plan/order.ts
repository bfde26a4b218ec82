import { referencesOf, type SnapshotEntry } from '../../../shared/app/snapshot-document.ts';

/**
 * Resources of one kind with those they refer to first (a failover backend after the failover
 * backends it falls over to), otherwise in their given order. A cycle, which the API cannot
 * hold, keeps its given order.
 */
export function dependencyOrder(entries: readonly SnapshotEntry[]): SnapshotEntry[] {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const ordered: SnapshotEntry[] = [];
  const visit = (entry: SnapshotEntry): void => {
    if (placed.has(entry.name) || visiting.has(entry.name)) return;
    visiting.add(entry.name);
    for (const ref of referencesOf(entry.fields)) {
      const child = byName.get(ref.name);
      if (child) visit(child);
    }
    placed.add(entry.name);
    ordered.push(entry);
  };
  entries.forEach(visit);
  return ordered;
}
