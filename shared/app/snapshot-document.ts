import { z } from 'zod';
import { flag } from '../api/errors/rules.ts';

/**
 * A snapshot: every configuration resource of one account as one JSON document, written so that
 * it can be compared with an account and applied to it, or to another one.
 *
 * - Each resource has a local **name** (`kind/slug`, e.g. `ipPolicy/office`), unique in the
 *   document and derived from the resource itself (its description, domain or hostname), so two
 *   exports of the same account give the same names. The account's **id** is kept beside it,
 *   which is how a snapshot finds its resources again when applied back to the same account.
 * - **fields** are the resource in the API's create form (modules included, in their write
 *   form), with every reference written as a local name instead of an id: `backend_id`,
 *   `ip_policy_ids`, `certificate_authority_ids`, a failover backend's `backends` and an IP
 *   policy rule's `ip_policy_id`.
 * - Deterministic: kinds in a fixed order, resources sorted by name, object keys sorted, so two
 *   exports of an unchanged account differ only in `exportedAt`.
 * - Secrets (OIDC and OAuth client secrets, webhook verification secrets) are left out unless
 *   the export was asked for them; `containsSecrets` says which. A secret left out is a field
 *   that is absent, never an empty or placeholder value.
 */

/** The resource kinds of a snapshot, in dependency order: a kind only names kinds before it. */
export const SNAPSHOT_KINDS = [
  'ipPolicy',
  'ipPolicyRule',
  'certificateAuthority',
  'sshCertificateAuthority',
  'sshCredential',
  'credential',
  'agentIngress',
  'httpResponseBackend',
  'tunnelGroupBackend',
  'failoverBackend',
  'tlsEdge',
  'httpsEdge',
  'httpsEdgeRoute',
] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** What a snapshot never holds, written into every document so that a reader knows. */
export const NOT_INCLUDED = [
  'tunnel sessions (they exist while agents are connected)',
  'abuse reports',
  'issued SSH certificates (sign new ones from the certificate authorities)',
  'tunnel credential tokens (the API shows a token only once, when it is created)',
  'SSH certificate authorities’ private keys (they never leave the service: applied elsewhere, a new key pair is made)',
  'the owner of credentials (users and bots belong to one account)',
] as const;

/** The fields that hold references, and so local names in a snapshot. */
export const REFERENCE_FIELDS = [
  'backend_id',
  'ip_policy_id',
  'ip_policy_ids',
  'certificate_authority_ids',
  'backends',
] as const;

const LocalName = z
  .string()
  .regex(/^[A-Za-z]+\/[a-z0-9][a-z0-9./-]*$/, 'must be "kind/slug", e.g. "ipPolicy/office"');

const SnapshotEntry = z.strictObject({
  /** The local name, which references in other resources use. */
  name: LocalName,
  /** The resource's id in the exported account. */
  id: z.string().min(1),
  /** The resource in its create form, references as local names. */
  fields: z.record(z.string(), z.unknown()),
  /** Routes only: the local name of the HTTPS edge holding the route. */
  edge: LocalName.optional(),
  /** SSH certificate authorities only: the public key, for reading; never compared or applied. */
  public_key: z.string().optional(),
});
export type SnapshotEntry = z.output<typeof SnapshotEntry>;

/** Kinds a snapshot gained after version 1 was first written: a file from before has none. */
const LATER_KINDS: readonly SnapshotKind[] = ['ipPolicyRule'];

const resourcesShape = Object.fromEntries(
  SNAPSHOT_KINDS.map((kind) => [kind, z.array(SnapshotEntry)]),
) as { [K in SnapshotKind]: z.ZodArray<typeof SnapshotEntry> };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A file written before a later kind existed reads with that kind empty and named in
 * `kindsLeftOut`: it says nothing about those resources, which is not the same as saying there
 * are none, so a plan neither prunes them nor a drift check reports them.
 */
function withLaterKinds(json: unknown): unknown {
  if (!isObject(json) || !isObject(json['resources'])) return json;
  const resources = json['resources'];
  const missing = LATER_KINDS.filter((kind) => !Object.hasOwn(resources, kind));
  if (missing.length === 0) return json;
  const before = json['kindsLeftOut'];
  return {
    ...json,
    resources: { ...resources, ...Object.fromEntries(missing.map((kind) => [kind, []])) },
    kindsLeftOut: [...(Array.isArray(before) ? before : []), ...missing],
  };
}

function namesOf(value: unknown, key: string): string[] {
  if (!(REFERENCE_FIELDS as readonly string[]).includes(key)) return [];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Every local name the fields refer to, with the path of the field holding it. */
export function referencesOf(
  fields: Readonly<Record<string, unknown>>,
): { path: string; name: string }[] {
  const found: { path: string; name: string }[] = [];
  const walk = (value: unknown, path: string, key: string): void => {
    for (const name of namesOf(value, key)) found.push({ path, name });
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) walk(v, path === '' ? k : `${path}.${k}`, k);
  };
  walk(fields, '', '');
  return found;
}

const DocumentShape = z
  .strictObject({
    format: z.literal('burrow-snapshot'),
    version: z.literal(1),
    exportedAt: z.iso.datetime(),
    source: z.strictObject({ apiUrl: z.string().min(1), profileName: z.string().optional() }),
    /** True when the secrets the API returned are in the file: keep it private (0600). */
    containsSecrets: z.boolean(),
    notIncluded: z.array(z.string()),
    resources: z.strictObject(resourcesShape),
    /** Kinds this file says nothing about (`withLaterKinds`); an export never writes it. */
    kindsLeftOut: z.array(z.enum(SNAPSHOT_KINDS)).optional(),
  })
  .superRefine((document, ctx) => {
    const names = new Set<string>();
    for (const kind of SNAPSHOT_KINDS)
      document.resources[kind].forEach((entry, i) => {
        if (names.has(entry.name))
          flag(ctx, ['resources', kind, i, 'name'], `"${entry.name}" is used twice`);
        names.add(entry.name);
      });
    // By name once: a route looked its edge up among all edges, 90k × 90k for a hostile file.
    const edges = new Set(document.resources.httpsEdge.map((e) => e.name));
    for (const kind of SNAPSHOT_KINDS)
      document.resources[kind].forEach((entry, i) => {
        for (const ref of referencesOf(entry.fields))
          if (!names.has(ref.name))
            flag(
              ctx,
              ['resources', kind, i, 'fields', ...ref.path.split('.')],
              `names "${ref.name}", which is not in the snapshot`,
            );
        if (kind === 'httpsEdgeRoute' && (entry.edge === undefined || !edges.has(entry.edge)))
          flag(ctx, ['resources', kind, i, 'edge'], 'must name an HTTPS edge of the snapshot');
      });
  });
export const SnapshotDocument = z.preprocess(withLaterKinds, DocumentShape);
export type SnapshotDocument = z.output<typeof SnapshotDocument>;

/** A document read from a file: the first problem names its field (`resources.tlsEdge.0.name`). */
export function parseSnapshot(json: unknown): SnapshotDocument {
  const result = SnapshotDocument.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  throw new Error(`Not a Burrow snapshot: ${path === '' ? '' : `${path} `}${issue?.message ?? ''}`);
}
