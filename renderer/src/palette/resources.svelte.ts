import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import { apiCall } from '../resources/calls.ts';
import { KINDS } from '../resources/kind-list.ts';
import type { Item, ResourceKind } from '../resources/kind-shape.ts';

/** A kind's resources as the palette read them. */
export type KindItems = { readonly kind: ResourceKind; readonly items: readonly Item[] };

/**
 * The active profile's resources for one opening of the palette: every listed kind read once, at
 * background priority (the person's own clicks go first), when it opens; typing searches what
 * came.
 */
export class PaletteResources {
  kinds = $state.raw<readonly KindItems[]>([]);
  /** Kinds still being read. */
  pending = $state(0);
  /** Kinds that could not be read (the API down, a key refused): said, not thrown. */
  failed = $state(0);
  private generation = 0;

  load(bridge: Bridge): void {
    const generation = ++this.generation;
    const listed = KINDS.filter((k) => k.listed);
    this.kinds = [];
    this.failed = 0;
    this.pending = listed.length;
    for (const kind of listed)
      void bridge
        .invoke(apiCall(`api.${kind.group}.listAll`), { priority: 'background' })
        .then(
          (items) => {
            if (generation !== this.generation) return;
            this.kinds = [...this.kinds, { kind, items: items as Item[] }];
          },
          () => {
            if (generation === this.generation) this.failed += 1;
          },
        )
        .finally(() => {
          if (generation === this.generation) this.pending -= 1;
        });
  }

  /** Closed: what it read goes, and answers still on their way are dropped. */
  clear(): void {
    this.generation += 1;
    this.kinds = [];
    this.pending = 0;
    this.failed = 0;
  }
}
