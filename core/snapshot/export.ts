import type { ApiClient } from '../api/client.ts';
import {
  NOT_INCLUDED,
  SNAPSHOT_KINDS,
  type SnapshotDocument,
  type SnapshotEntry,
  type SnapshotKind,
} from '../../shared/snapshot/document.ts';
import {
  canonical,
  isSecretValue,
  getPath,
  project,
  refsToIds,
  secretPaths,
  swapRefs,
  withoutPath,
} from './fields.ts';
import { KINDS, type Resource } from './kinds.ts';
import { nameResources } from './names.ts';
import { sshCaCreateFields } from './ssh-ca.ts';

export type ExportProgress = {
  /** The kind being read, and how many of its resources have arrived so far. */
  readonly kind: SnapshotKind;
  readonly loaded: number;
  /** Kinds read completely, of `totalKinds`. */
  readonly kindsDone: number;
  readonly totalKinds: number;
};

export type ExportOptions = {
  readonly apiUrl: string;
  readonly profileName?: string;
  /** Keep the OAuth/OIDC client secrets and webhook secrets the API returns. */
  readonly withSecrets?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ExportProgress) => void;
  /** For tests and for documents that must compare byte for byte. */
  readonly now?: () => Date;
};

/** Every resource of the account, by kind, as the API returns it. Routes come out of their edges. */
export type AccountResources = { readonly [K in SnapshotKind]: readonly Resource[] };

const LISTED = SNAPSHOT_KINDS.filter((k) => k !== 'httpsEdgeRoute');

async function readAccount(client: ApiClient, options: ExportOptions): Promise<AccountResources> {
  const read: Partial<Record<SnapshotKind, readonly Resource[]>> = {};
  for (const [done, kind] of LISTED.entries()) {
    const report = (loaded: number) =>
      options.onProgress?.({ kind, loaded, kindsDone: done, totalKinds: LISTED.length });
    report(0);
    // Every group of the table has a list; the name is computed, so its item type is not.
    const listAll = client.listAll as (name: string, o: object) => Promise<Resource[]>;
    read[kind] = await listAll(`${KINDS[kind].group}.list`, {
      priority: 'background',
      signal: options.signal,
      onProgress: report,
    });
  }
  read.httpsEdgeRoute = (read.httpsEdge ?? []).flatMap(
    (edge) => (edge['routes'] as Resource[] | undefined) ?? [],
  );
  return read as AccountResources;
}

/** A representation in its create form, modules in their write form, references still ids. */
export function createForm(kind: SnapshotKind, resource: Resource): Record<string, unknown> {
  const info = KINDS[kind];
  const source = kind === 'sshCertificateAuthority' ? sshCaCreateFields(resource) : resource;
  const withModules: Record<string, unknown> = { ...source };
  for (const module of Object.keys(info.modules)) {
    const value = source[module];
    if (value === null || value === undefined) delete withModules[module];
    else withModules[module] = refsToIds(value as Record<string, unknown>);
  }
  const fields = project(info.create, withModules) as Record<string, unknown>;
  for (const field of info.omit ?? []) delete fields[field];
  return fields;
}

function withoutSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  return secretPaths(fields).reduce(
    (out, path) => (isSecretValue(getPath(out, path)) ? withoutPath(out, path) : out),
    fields,
  );
}

/**
 * The snapshot of resources already read: named, references as names, sorted. Pure, so that a
 * plan can be made from any two accounts' resources.
 */
export function buildSnapshot(
  account: AccountResources,
  options: Pick<ExportOptions, 'apiUrl' | 'profileName' | 'withSecrets'> & { exportedAt: string },
): SnapshotDocument {
  const names = new Map<string, string>();
  const nameOf = (id: string) => names.get(id) ?? id;
  const resources = {} as Record<SnapshotKind, SnapshotEntry[]>;
  for (const kind of SNAPSHOT_KINDS) {
    const forms = account[kind].map((resource) => {
      const raw = createForm(kind, resource);
      const fields = options.withSecrets === true ? raw : withoutSecrets(raw);
      return { resource, fields };
    });
    const edgeName = (r: Resource) => nameOf(String(r['edge_id']));
    const kindNames = nameResources(
      kind,
      forms.map(({ resource, fields }) => ({
        id: resource.id,
        label: KINDS[kind].label(resource),
        content: JSON.stringify(canonical(swapRefs(fields, nameOf))),
        ...(kind === 'httpsEdgeRoute' && { prefix: edgeName(resource) }),
      })),
    );
    for (const [id, name] of kindNames) names.set(id, name);
    resources[kind] = forms
      .map(({ resource, fields }) =>
        canonical({
          name: nameOf(resource.id),
          id: resource.id,
          fields: swapRefs(fields, nameOf),
          ...(kind === 'httpsEdgeRoute' && { edge: edgeName(resource) }),
          ...(kind === 'sshCertificateAuthority' && { public_key: String(resource['public_key']) }),
        }),
      )
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return {
    format: 'burrow-snapshot',
    version: 1,
    exportedAt: options.exportedAt,
    source: {
      apiUrl: options.apiUrl,
      ...(options.profileName !== undefined && { profileName: options.profileName }),
    },
    containsSecrets: options.withSecrets === true,
    notIncluded: [...NOT_INCLUDED],
    resources,
  };
}

/** Reads the whole account at background priority, so a person's clicks go first. */
export async function exportSnapshot(
  client: ApiClient,
  options: ExportOptions,
): Promise<SnapshotDocument> {
  const account = await readAccount(client, options);
  const exportedAt = (options.now?.() ?? new Date()).toISOString();
  return buildSnapshot(account, { ...options, exportedAt });
}

/** The document as written to a file: two spaces, a final newline. */
export function serializeSnapshot(document: SnapshotDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
