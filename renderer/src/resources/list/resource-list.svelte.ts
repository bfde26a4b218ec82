import type { Bridge } from '../../../../shared/app/ipc/bridge.ts';
import type { IpcError } from '../../../../shared/app/ipc/contract.ts';
import { problemOf } from '../../lib/errors.ts';
import { KindCalls } from '../kinds/calls.ts';
import type { Item, ResourceKind } from '../kinds/kind-shape.ts';
import { references } from '../names/references.svelte.ts';

export type Progress = { readonly done: number; readonly total: number; readonly label: string };
export type Failure = { readonly id: string; readonly problem: IpcError };

let requests = 0;

/**
 * The loaded part of one kind's list, newest first as the API answers: pages are added as the
 * person scrolls, or all at once with progress. Items are kept raw (not deeply reactive) so that
 * 10,000 rows cost one array, not 10,000 proxies.
 */
export class ResourceList {
  items = $state.raw<Item[]>([]);
  /** True once the last page is in. */
  complete = $state(false);
  loading = $state(false);
  problem = $state<IpcError | undefined>();
  progress = $state<Progress | undefined>();
  filter = $state('');
  readonly calls: KindCalls;
  private requestId: string | undefined;
  // The first load a navigation started (`preload`), which the screen's first `show` is.
  private preloaded = false;

  /** `scope` (the profile) keeps apart what the window remembers of unlisted kinds. */
  constructor(
    readonly bridge: Bridge,
    readonly kind: ResourceKind,
    readonly scope: string,
  ) {
    this.calls = new KindCalls(bridge, kind);
    if (!kind.listed) this.complete = true;
  }

  /** The last load got no answer at all (the API or the network is down), not a refusal. */
  get unreachable(): boolean {
    return this.problem?.code === 'NETWORK_ERROR';
  }

  private get memoryKey(): string {
    return `burrow.${this.kind.group}.${this.scope}`;
  }

  private remembered(): string[] {
    const saved: unknown = JSON.parse(localStorage.getItem(this.memoryKey) ?? '[]');
    return Array.isArray(saved) ? saved.filter((id) => typeof id === 'string') : [];
  }

  /** Unlisted kinds: what this window created, read back one by one, newest first. */
  private async recall(): Promise<void> {
    this.loading = true;
    const found = await Promise.all(
      this.remembered().map((id) => this.calls.get(id).catch(() => undefined)),
    );
    this.items = found.filter((item) => item !== undefined);
    references.learn(this.items);
    this.loading = false;
  }

  /** The loaded items that match the filter, by id, description or metadata. */
  get shown(): Item[] {
    const needle = this.filter.trim().toLowerCase();
    if (!needle) return this.items;
    return this.items.filter((item) =>
      [item.id, item.description ?? '', item.metadata ?? ''].some((s) =>
        s.toLowerCase().includes(needle),
      ),
    );
  }

  /**
   * Binds the references cache to this list's profile and asks for what its columns refer to,
   * so the lookups leave beside the first page rather than after it; its own kind is the list
   * itself, which names its rows as it loads. Not in the constructor: a list is made while
   * deriving, where state cannot change.
   */
  private lookUpReferences(): void {
    references.use(this.bridge, this.scope);
    references.prefetch(
      this.kind.columns.flatMap((c) => c.refers ?? []).filter((k) => k !== this.kind.idKind),
    );
  }

  /** Loads the next page, unless one is on its way or none is left. */
  async more(): Promise<void> {
    if (this.loading || this.complete) return;
    this.loading = true;
    try {
      // A first page's references are looked up beside it, their calls leaving before its own:
      // the server takes calls in order and theirs are small, so the names are in when the page
      // arrives and its rows are drawn once, named (after it, they came a frame later).
      if (this.items.length === 0) this.lookUpReferences();
      const page = await this.calls.page(this.items.at(-1)?.id);
      this.items = [...this.items, ...page.items];
      references.learn(page.items);
      this.complete = !page.more;
      this.problem = undefined;
    } catch (error) {
      this.problem = problemOf(error);
    } finally {
      this.loading = false;
    }
  }

  /** Loads every page, counting them as they arrive; `stop()` ends it early. */
  async all(): Promise<void> {
    if (this.loading || this.complete) return;
    const requestId = `list${++requests}`;
    this.requestId = requestId;
    this.loading = true;
    this.progress = { done: this.items.length, total: 0, label: 'Loading every page' };
    const stop = this.bridge.on('api.progress', (p) => {
      if (p.requestId === requestId)
        this.progress = { done: p.loaded, total: 0, label: `Loading page ${p.pages + 1}` };
    });
    try {
      this.items = await this.calls.all(requestId);
      references.learn(this.items);
      this.complete = true;
      this.problem = undefined;
    } catch (error) {
      this.problem = problemOf(error);
    } finally {
      stop();
      this.requestId = undefined;
      this.loading = false;
      this.progress = undefined;
    }
  }

  /** Loads again what failed to load; true when an API that did not answer now has. */
  async retry(): Promise<boolean> {
    const wasUnreachable = this.unreachable;
    await this.more();
    return wasUnreachable && this.problem === undefined;
  }

  stop(): void {
    if (this.requestId) void this.calls.cancel(this.requestId);
  }

  /** Loads the first page before the list is on screen; its screen's `show` then waits for it. */
  async preload(): Promise<void> {
    this.preloaded = true;
    await this.reload();
  }

  /** Loads the first page as the list comes on screen, unless `preload` already asked for it. */
  async show(): Promise<void> {
    if (this.preloaded) this.preloaded = false;
    else await this.reload();
  }

  /** Starts over from the newest page. */
  async reload(): Promise<void> {
    if (!this.kind.listed) {
      this.lookUpReferences();
      return this.recall();
    }
    this.items = [];
    this.complete = false;
    await this.more();
  }

  /** Puts a created or edited item in place: new ones first, as the API orders them. */
  put(item: Item): void {
    const at = this.items.findIndex((i) => i.id === item.id);
    if (at < 0 && !this.kind.listed)
      localStorage.setItem(this.memoryKey, JSON.stringify([item.id, ...this.remembered()]));
    this.items = at < 0 ? [item, ...this.items] : this.items.with(at, item);
    references.learn([item]);
  }

  drop(ids: readonly string[]): void {
    const gone: Record<string, true> = Object.fromEntries(ids.map((id) => [id, true]));
    this.items = this.items.filter((i) => !gone[i.id]);
    references.forget(ids);
  }

  /** Deletes one after another, with progress; answers what failed and why. */
  async deleteMany(ids: readonly string[]): Promise<Failure[]> {
    const failures: Failure[] = [];
    const deleted: string[] = [];
    for (const [i, id] of ids.entries()) {
      this.progress = { done: i, total: ids.length, label: 'Deleting' };
      try {
        await this.calls.delete(id);
        deleted.push(id);
      } catch (error) {
        failures.push({ id, problem: problemOf(error) });
      }
    }
    this.progress = undefined;
    this.drop(deleted);
    return failures;
  }
}
