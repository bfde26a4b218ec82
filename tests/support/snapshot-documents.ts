import { SNAPSHOT_KINDS, type SnapshotDocument } from '../../shared/app/snapshot-document.ts';

type Resources = SnapshotDocument['resources'];

/** Every kind a snapshot holds, each with no resources yet. */
export function noResources(): Resources {
  return Object.fromEntries(SNAPSHOT_KINDS.map((kind) => [kind, []])) as unknown as Resources;
}

/**
 * A snapshot document as Burrow writes one: of https://api.example.com, without secrets, nothing
 * left out, every kind empty but those `resources` fills; `more` sets the rest (its source, date,
 * secrets).
 */
export function snapshotDocument(
  resources: Partial<Resources> = {},
  more: Partial<Omit<SnapshotDocument, 'resources'>> = {},
): SnapshotDocument {
  return {
    format: 'burrow-snapshot',
    version: 1,
    exportedAt: '2024-11-12T10:00:00.000Z',
    source: { apiUrl: 'https://api.example.com' },
    containsSecrets: false,
    notIncluded: [],
    ...more,
    resources: { ...noResources(), ...resources },
  };
}
