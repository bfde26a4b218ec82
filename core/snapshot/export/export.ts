import type { ApiClient } from '../../api/client.ts';
import {
  NOT_INCLUDED,
  SNAPSHOT_KINDS,
  type SnapshotDocument,
  type SnapshotEntry,
  type SnapshotKind,
} from '../../../shared/app/snapshot-document.ts';
import {
  canonical,
  isSecretValue,
  getPath,
  project,
  refsToIds,
  secretPaths,
  swapRefs,
  withoutPath,
} from '../resources/fields.ts';
import { isPlainObject } from '../../../shared/api/errors/validate.ts';
import { KINDS, type Resource } from '../resources/kinds.ts';
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

const LISTED = SNAPSHOT_KINDS.filter((k) => k !== 'httpsEdgeRoute');

const routesOf = (edges: readonly Resource[]) =>
  edges.flatMap((edge) => (edge['routes'] as Resource[] | undefined) ?? []);

/**
 * Reads the account kind by kind, handing each kind to `builder` while the next is being read:
 * the work on what arrived fills the governor's waits instead of following the last page.
 */
async function readAccount(
  client: ApiClient,
  options: ExportOptions,
  builder: SnapshotBuilder,
): Promise<void> {
  // Every group of the table has a list; the name is computed, so its item type is not.
  const listAll = client.listAll as (name: string, o: object) => Promise<Resource[]>;
  const list = (done: number) => {
    const kind = LISTED[done] as SnapshotKind;
    const report = (loaded: number) =>
      options.onProgress?.({ kind, loaded, kindsDone: done, totalKinds: LISTED.length });
    report(0);
    const listed = listAll(`${KINDS[kind].group}.list`, {
      priority: 'background',
      signal: options.signal,
      onProgress: report,
    });
    // Awaited below; until then, a failure must not count as unhandled.
    listed.catch(() => undefined);
    return listed;
  };
  let next = list(0);
  for (const [done, kind] of LISTED.entries()) {
    const resources = await next;
    if (done + 1 < LISTED.length) next = list(done + 1);
    builder.add(kind, resources);
    if (kind === 'httpsEdge') builder.add('httpsEdgeRoute', routesOf(resources));
  }
}

/** A representation in its create form, modules in their write form, references still ids. */
export function createForm(kind: SnapshotKind, resource: Resource): Record<string, unknown> {
  const info = KINDS[kind];
  const source = kind === 'sshCertificateAuthority' ? sshCaCreateFields(resource) : resource;
  const withModules: Record<string, unknown> = { ...source };
  for (const [read, write] of Object.entries(info.refs ?? {})) {
    const ref = source[read];
    delete withModules[read];
    if (isPlainObject(ref) && typeof ref['id'] === 'string') withModules[write] = ref['id'];
  }
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

type BuildOptions = Pick<ExportOptions, 'apiUrl' | 'profileName' | 'withSecrets'>;

/**
 * The snapshot, made kind by kind in the document's order (a kind's references are to kinds
 * before it): named, references as names, sorted.
 */
class SnapshotBuilder {
  private readonly names = new Map<string, string>();
  private readonly resources = {} as Record<SnapshotKind, SnapshotEntry[]>;
  constructor(private readonly options: BuildOptions) {}

  private nameOf = (id: string) => this.names.get(id) ?? id;

  add(kind: SnapshotKind, account: readonly Resource[]): void {
    const { nameOf, names } = this;
    const forms = account.map((resource) => {
      const raw = createForm(kind, resource);
      const fields = this.options.withSecrets === true ? raw : withoutSecrets(raw);
      return { resource, fields };
    });
    const edgeName = (r: Resource) => nameOf(String(r['edge_id']));
    // A rule's name starts with its policy's, as a route's with its edge's.
    const owner = KINDS[kind].owner;
    const ownerName = (r: Resource) => {
      const ref = owner === undefined ? undefined : r[owner];
      return isPlainObject(ref) ? nameOf(String(ref['id'])) : undefined;
    };
    const kindNames = nameResources(
      kind,
      forms.map(({ resource, fields }) => ({
        id: resource.id,
        label: KINDS[kind].label(resource),
        content: JSON.stringify(canonical(swapRefs(fields, nameOf))),
        ...(kind === 'httpsEdgeRoute' && { prefix: edgeName(resource) }),
        ...(ownerName(resource) !== undefined && { prefix: ownerName(resource) }),
      })),
    );
    for (const [id, name] of kindNames) names.set(id, name);
    this.resources[kind] = forms
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

  document(exportedAt: string): SnapshotDocument {
    return {
      format: 'burrow-snapshot',
      version: 1,
      exportedAt,
      source: {
        apiUrl: this.options.apiUrl,
        ...(this.options.profileName !== undefined && { profileName: this.options.profileName }),
      },
      containsSecrets: this.options.withSecrets === true,
      notIncluded: [...NOT_INCLUDED],
      resources: this.resources,
    };
  }
}

/** Reads the whole account at background priority, so a person's clicks go first. */
export async function exportSnapshot(
  client: ApiClient,
  options: ExportOptions,
): Promise<SnapshotDocument> {
  const builder = new SnapshotBuilder(options);
  await readAccount(client, options, builder);
  return builder.document((options.now?.() ?? new Date()).toISOString());
}

/** The document as written to a file: two spaces, a final newline. */
export function serializeSnapshot(document: SnapshotDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
