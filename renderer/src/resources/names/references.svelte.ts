import { ID_PREFIXES, idKindOf, type IdKind } from '../../../../shared/api/values/ids.ts';
import type { Bridge } from '../../../../shared/app/ipc/bridge.ts';
import { apiCall } from '../kinds/calls.ts';
import { hrefOf, type Item } from '../kinds/kind-shape.ts';
import { kindOf } from '../kinds/kind-list.ts';

/** What a reference shows: the description of what it names, or its kind and a short id. */
export type Reference = {
  readonly id: string;
  readonly text: string;
  readonly href: string | undefined;
  /** False while (or when) what the id names is not known. */
  readonly known: boolean;
};

/** Kinds the window has no screen of, in words. */
const OTHER_KINDS: Partial<Record<IdKind, string>> = {
  user: 'user',
  bot: 'bot',
  tunnelSession: 'agent session',
  httpsEdgeRoute: 'route',
  operation: 'operation',
};

type KindState = 'loading' | 'done' | 'failed';

/**
 * The one place the window resolves ids to what they name. Every list the window loads feeds it
 * (`learn`); an id it does not know yet asks for its kind's whole list once, in one batch with the
 * other kinds asked for in the same turn, at background priority. So a view of 10,000 rows costs
 * the pages of the kinds it refers to, never a request per row.
 */
export class References {
  // Plain, not reactive: `version` stands for all of them. Kept by kind, as `all` reads them: a
  // palette opening over 10,000 resources otherwise scanned every id once per kind.
  private items: Partial<Record<IdKind, Record<string, Item>>> = {};
  private kinds = $state<Partial<Record<IdKind, KindState>>>({});
  // Bumped on every change: readers subscribe to it, not to 10,000 entries.
  private version = $state(0);
  private queued: IdKind[] = [];
  private bridge: Bridge | undefined;
  private scope = '';
  // Which `use` an answer was asked under: one for another profile is dropped.
  private generation = 0;

  /** The profile whose resources these are; another one starts empty. */
  use(bridge: Bridge, scope: string): void {
    if (bridge === this.bridge && scope === this.scope) return;
    this.bridge = bridge;
    this.scope = scope;
    this.generation += 1;
    this.items = {};
    this.queued = [];
    this.kinds = {};
    this.version += 1;
  }

  learn(items: readonly Item[]): void {
    if (items.length === 0) return;
    for (const item of items) {
      const kind = idKindOf(item.id);
      if (kind) (this.items[kind] ??= Object.create(null) as Record<string, Item>)[item.id] = item;
    }
    this.version += 1;
  }

  forget(ids: readonly string[]): void {
    for (const id of ids) {
      const kind = idKindOf(id);
      const known = kind && this.items[kind];
      if (known) delete known[id];
    }
    this.version += 1;
  }

  /** The resource `id` names, once known; asking starts its kind's lookup. */
  item(id: string): Item | undefined {
    void this.version;
    const kind = idKindOf(id);
    if (!kind) return undefined;
    const found = this.items[kind]?.[id];
    if (!found) this.want(kind);
    return found;
  }

  reference(id: string): Reference {
    const kind = idKindOf(id);
    const windowKind = kind ? kindOf(kind) : undefined;
    const href = windowKind ? hrefOf(windowKind, id) : undefined;
    return { id, text: this.text(id), href, known: this.item(id) !== undefined };
  }

  /**
   * What a reference reads as, without the address `reference` makes for it: a list's rows name
   * theirs in text, and building each one's address was a fifth of drawing a first page.
   */
  text(id: string): string {
    return this.item(id)?.description || `${kindWords(id)} ${shortId(id)}`;
  }

  /** Every known resource of `kind`, and whether that is all of them; asking loads them once. */
  all(kind: IdKind): {
    readonly items: Item[];
    /** True once its list is in (or could not be read: `failed`). */
    readonly complete: boolean;
    readonly failed: boolean;
  } {
    void this.version;
    this.want(kind);
    const items = Object.values(this.items[kind] ?? {});
    const state = this.kinds[kind];
    return { items, complete: state === 'done' || state === 'failed', failed: state === 'failed' };
  }

  /**
   * Starts looking up these kinds now, beside the list that refers to them: called outside a
   * render (a list's load), so the calls leave in this turn, not after the screen has drawn.
   */
  prefetch(kinds: readonly IdKind[]): void {
    for (const kind of kinds) this.want(kind, false);
    void this.flush();
  }

  private want(kind: IdKind, later = true): void {
    if (this.kinds[kind] !== undefined || this.queued.includes(kind) || !kindOf(kind)?.listed)
      return;
    this.queued.push(kind);
    // After the render that asked: state changes there are not allowed, and the batch fills up.
    if (later && this.queued.length === 1) setTimeout(() => void this.flush(), 0);
  }

  private async flush(): Promise<void> {
    const { bridge, generation } = this;
    const kinds = this.queued;
    this.queued = [];
    if (!bridge || kinds.length === 0) return;
    this.kinds = { ...this.kinds, ...Object.fromEntries(kinds.map((k) => [k, 'loading'])) };
    await Promise.all(
      kinds.map(async (kind) => {
        const group = kindOf(kind)?.group;
        let state: KindState = 'failed';
        try {
          const items = await bridge.invoke(apiCall(`api.${group}.listAll`), {
            priority: 'background',
          });
          if (generation !== this.generation) return;
          this.learn(items as Item[]);
          state = 'done';
        } catch {
          // Ids of a kind that cannot be listed read as their kind and a short id.
        }
        if (generation === this.generation) this.kinds = { ...this.kinds, [kind]: state };
      }),
    );
  }
}

/** What kind of thing an id names, in words: "failover backend", "route". */
export function kindWords(id: string): string {
  const kind = idKindOf(id);
  if (!kind) return 'resource';
  return kindOf(kind)?.singular ?? OTHER_KINDS[kind] ?? 'resource';
}

/** `bkdtg_NJWm…` rather than 30 characters of random id. */
export function shortId(id: string): string {
  const kind = idKindOf(id);
  const prefix = kind ? ID_PREFIXES[kind].length : 0;
  return id.length > prefix + 6 ? `${id.slice(0, prefix + 4)}…` : id;
}

/** The window's references: one cache, bound to the active profile by the lists it shows. */
export const references = new References();
