import type { BodyOf, EndpointName } from '../../../../shared/api/catalog/endpoints.ts';
import type { IdKind } from '../../../../shared/api/values/ids.ts';
import { valueLabel } from '../../../../shared/api/words/value-labels.ts';
import { timeWords } from '../../../../shared/app/clock.ts';
import { isTimestamp } from '../../lib/time.ts';
import { routeHref, type ScreenId } from '../../../../shared/app/routes.ts';

/*
 * What the window needs to know about a kind of resource beyond the catalog: its words, its
 * columns, and the fields of its create and update bodies. The field names are checked against
 * the endpoint's body type, so a form cannot offer what the API does not take.
 */

/** Any resource as it comes back: an id and a uri, and whatever else its shape has. */
export type Item = {
  readonly id: string;
  readonly uri: string;
  readonly created_at?: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly [field: string]: unknown;
};

type Input =
  | { readonly type: 'text' | 'textarea' | 'description' | 'metadata' | 'number' | 'boolean' }
  /** `numeric` sends the choice as a number; an empty option leaves the field out. */
  | { readonly type: 'select'; readonly options: readonly string[]; readonly numeric?: boolean }
  /** A list of strings, one per line, each checked as it is typed. */
  | {
      readonly type: 'lines';
      readonly check?: (line: string) => string | undefined;
      readonly one?: string;
    }
  /** Keys to values (headers, labels). */
  | { readonly type: 'map'; readonly one?: string }
  /**
   * Ids of other resources, chosen from their lists; `ordered` when their order matters. `offers`
   * is a kind the picker lets people create on the spot when none fits (a CA for mutual TLS):
   * the new one is picked.
   */
  | {
      readonly type: 'refs';
      readonly kinds: readonly IdKind[];
      readonly ordered?: boolean;
      readonly offers?: IdKind;
    }
  | { readonly type: 'ref'; readonly kinds: readonly IdKind[]; readonly offers?: IdKind };

/*
 * A list's or map's `one` is one entry in words, for its Add button ("Add scope" under "Scopes");
 * a label that already names one entry ("Hostport") needs none.
 */
export type Field<K extends string = string> = Input & {
  readonly name: K;
  readonly label: string;
  readonly help?: string;
  /** The rule in plain words, after the label, when the schema's would be cryptic: "must be a fraction…". */
  readonly rule?: string;
  readonly required?: boolean;
  /** Where a representation holds the value, when not under `name` (`backend` for `backend_id`). */
  readonly read?: string;
  /** Shown (and sent) only while this holds, e.g. a curve only for ecdsa keys. */
  readonly when?: (values: Readonly<Record<string, unknown>>) => boolean;
  /** A secret the API echoes back: masked in details, typed in a password input. */
  readonly secret?: boolean;
};

type FieldsOf<N extends EndpointName> = readonly Field<keyof NonNullable<BodyOf<N>> & string>[];

export type ModuleSpec = {
  /** The module's field in the representation and its path segment. */
  readonly name: string;
  readonly label: string;
  readonly fields: readonly Field[];
  /** Where the body nests what the form shows flat (OAuth's one provider): module ↔ form. */
  readonly shape?: {
    readonly read: (module: Item | undefined) => Item;
    readonly write: (body: Record<string, unknown>) => Record<string, unknown>;
  };
};

/** Where a representation holds each secret of these fields, with the field's label. */
export function secretsOf(fields: readonly Field[]): Readonly<Record<string, string>> {
  return Object.fromEntries(fields.filter((f) => f.secret).map((f) => [f.read ?? f.name, f.label]));
}

export type Column = {
  readonly label: string;
  /** The cell's text; `nameOf` words an id as what it names, for columns of references. */
  readonly value: (item: Item, nameOf: (id: string) => string) => string;
  /** Kinds its values refer to: looked up as the list starts, beside its first page. */
  readonly refers?: readonly IdKind[];
};

/** A group of the catalog that has resources to create: `ipPolicies` of `ipPolicies.create`. */
export type CreatableGroup = EndpointName extends infer N
  ? N extends `${infer G}.create`
    ? G
    : never
  : never;

/** A line a config file needs, and what it does there. */
export type SetupLine = { readonly label: string; readonly line: string };

export type ResourceKind<G extends CreatableGroup = CreatableGroup> = {
  /** The catalog's group: `api.<group>.create`, `.list`, `.get`, `.update`, `.delete`. */
  readonly group: G;
  readonly idKind: IdKind;
  readonly section: ScreenId;
  readonly singular: string;
  readonly plural: string;
  /** Shown beside id, description and creation time. */
  readonly columns: readonly Column[];
  readonly create: readonly Field[];
  readonly update: readonly Field[];
  /** False where the API has no list (abuse reports): the window lists what it filed itself. */
  readonly listed: boolean;
  /** What the person should know on the list, e.g. what to put at the registrar. */
  readonly note?: string;
  /** Fields whose every value gets a copy button (ids and URIs always have one). */
  readonly copyable?: readonly string[];
  /** The lines a config file needs for one of these (`file`), shown on its page to copy. */
  readonly setup?: { readonly file: string; readonly lines: (item: Item) => SetupLine[] };
  /** Modules set and removed with `api.<group>.<module>.replace` / `.delete`. */
  readonly modules?: readonly ModuleSpec[];
  /** Why a set module has no effect on this resource as it stands, if it has none. */
  readonly moduleWarning?: (item: Item, module: string) => string | undefined;
  /** Why a module cannot be set on this resource as it stands (one auth module per route). */
  readonly moduleBlocked?: (item: Item, module: string) => string | undefined;
  /** False where the API cannot delete this kind (abuse reports). */
  readonly deletable: boolean;
};

/**
 * Declares a kind. The type parameter ties the fields to the bodies of `<group>.create` and
 * `<group>.update`: a field the body does not have is a type error.
 */
export function kind<const G extends CreatableGroup>(
  k: Omit<ResourceKind<G>, 'create' | 'update' | 'listed' | 'columns' | 'deletable'> & {
    readonly columns?: readonly Column[];
    readonly create: `${G}.create` extends EndpointName ? FieldsOf<`${G}.create`> : never;
    readonly update: `${G}.update` extends EndpointName ? FieldsOf<`${G}.update`> : readonly [];
    readonly listed?: boolean;
  },
): ResourceKind<G> {
  return { columns: [], listed: true, deletable: k.listed ?? true, ...k };
}

/** A column of one field written as text; lists are joined, enumerated values and times in words. */
export function column(label: string, name: string): Column {
  return {
    label,
    value: (item) => {
      const value = item[name];
      if (Array.isArray(value)) return value.join(', ');
      if (typeof value === 'object' && value !== null)
        return Object.entries(value)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ');
      if (typeof value !== 'string') return String(value ?? '');
      return isTimestamp(value) ? timeWords(value) : valueLabel(name, value);
    },
  };
}

export const describedFields = [
  { name: 'description', label: 'Description', type: 'description' },
  { name: 'metadata', label: 'Metadata', type: 'metadata' },
] as const satisfies readonly Field<'description' | 'metadata'>[];

/** A kind's address in the window; detail pages add the id. */
export function hrefOf(k: ResourceKind, id?: string): string {
  return routeHref({ screen: k.section, path: id ? [k.group, id] : [k.group] });
}
