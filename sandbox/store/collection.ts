/**
 * The resources of one kind in one account, in creation order: O(1) get, insert and delete, and
 * a page of the newest-first list in O(log n + limit) amortized.
 */
type Entry<T> = { readonly seq: number; value: T; live: boolean };

export type Page<T> = {
  readonly items: readonly T[];
  /** The before_id of the next page, or undefined on the last one. */
  readonly next: string | undefined;
};

/** One change to a collection, as its observer sees it. */
export type Change<T> =
  | { readonly op: 'insert'; readonly value: T }
  | { readonly op: 'replace'; readonly value: T; readonly previous: T }
  | { readonly op: 'delete'; readonly previous: T };

/**
 * Told of every change just before it is made (so that an observer that throws stops it), with
 * the function that takes it back exactly (a deleted resource returns to its place in the list);
 * changes are undone newest first.
 */
export type Observer<T> = (change: Change<T>, undo: () => void) => void;

/** Positions of deleted ids kept so that a page boundary that was deleted still continues. */
const RETIRED_MAX = 10_000;
const COMPACT_MIN = 32;

export class Collection<T extends { readonly id: string }> {
  private readonly byId = new Map<string, Entry<T>>();
  private order: Entry<T>[] = [];
  private dead = 0;
  private nextSeq = 0;
  private readonly retired = new Map<string, number>();

  constructor(private readonly observer?: Observer<T>) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: string): T | undefined {
    return this.byId.get(id)?.value;
  }

  /** Adds a new resource as the newest. */
  insert(value: T): void {
    const entry = { seq: this.nextSeq, value, live: true };
    this.observer?.({ op: 'insert', value }, () => this.unlink(entry));
    this.nextSeq++;
    this.byId.set(value.id, entry);
    this.order.push(entry);
  }

  /** Replaces a resource in place; its position in the list is its creation's. */
  replace(value: T): void {
    const entry = this.byId.get(value.id);
    if (!entry) throw new Error(`replace of unknown id ${value.id}`);
    const previous = entry.value;
    this.observer?.({ op: 'replace', value, previous }, () => (entry.value = previous));
    entry.value = value;
  }

  delete(id: string): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    this.observer?.({ op: 'delete', previous: entry.value }, () => this.restore(entry));
    this.byId.delete(id);
    entry.live = false;
    this.dead++;
    this.retired.set(id, entry.seq);
    if (this.retired.size > RETIRED_MAX) {
      const oldest = this.retired.keys().next().value;
      if (oldest !== undefined) this.retired.delete(oldest);
    }
    if (this.dead > COMPACT_MIN && this.dead * 2 > this.order.length) {
      this.order = this.order.filter((e) => e.live);
      this.dead = 0;
    }
    return true;
  }

  /** Undoes an insert: the entry was never there. */
  private unlink(entry: Entry<T>): void {
    this.byId.delete(entry.value.id);
    const at = this.indexOfSeq(entry.seq);
    if (this.order[at] === entry) this.order.splice(at, 1);
  }

  /** Undoes a delete: the entry is back where it was (compaction may have dropped it from the order). */
  private restore(entry: Entry<T>): void {
    entry.live = true;
    this.byId.set(entry.value.id, entry);
    this.retired.delete(entry.value.id);
    const at = this.indexOfSeq(entry.seq);
    if (this.order[at] === entry) this.dead--;
    else this.order.splice(at, 0, entry);
  }

  /** Oldest first. */
  *values(): IterableIterator<T> {
    for (const entry of this.order) if (entry.live) yield entry.value;
  }

  /**
   * Up to `limit` resources created before `beforeId` (or the newest), newest first. Undefined
   * when `beforeId` names nothing this collection has held recently.
   */
  page(limit: number, beforeId?: string): Page<T> | undefined {
    let end = this.order.length;
    if (beforeId !== undefined) {
      const seq = this.byId.get(beforeId)?.seq ?? this.retired.get(beforeId);
      if (seq === undefined) return undefined;
      end = this.indexOfSeq(seq);
    }
    const items: T[] = [];
    let i = end - 1;
    for (; i >= 0 && items.length < limit; i--) {
      const entry = this.order[i];
      if (entry?.live) items.push(entry.value);
    }
    while (i >= 0 && !this.order[i]?.live) i--;
    const last = items.at(-1);
    return { items, next: i >= 0 && last ? last.id : undefined };
  }

  /** The index of the first entry whose seq is at least `seq` (entries are sorted by seq). */
  private indexOfSeq(seq: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.order[mid]?.seq ?? Infinity) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
