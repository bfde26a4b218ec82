import type { IdKind } from '../../../../../shared/api/values/ids.ts';
import type { Bridge } from '../../../../../shared/app/ipc/bridge.ts';
import { KindCalls } from '../../kinds/calls.ts';
import type { Item } from '../../kinds/kind-shape.ts';
import { kindOf } from '../../kinds/kind-list.ts';
import { nameOf } from '../../names/names.ts';
import { kindWords } from '../../names/references.svelte.ts';

/** Every resource of the given kinds, to choose references from; a kind that fails offers none. */
export async function loadChoices(
  bridge: Bridge,
  kinds: readonly IdKind[],
  requestPrefix: string,
): Promise<Item[]> {
  const calls = kinds.flatMap((k) => {
    const found = kindOf(k);
    return found ? [new KindCalls(bridge, found)] : [];
  });
  const lists = await Promise.all(
    calls.map((c, i) => c.all(`${requestPrefix}-${i}`).catch(() => [] as Item[])),
  );
  return lists.flat();
}

/** A choice as people know it: "HTTP response backend 'maintenance page'", never its bare id. */
export function describeRef(choices: readonly Item[], id: string): string {
  const found = choices.find((c) => c.id === id);
  return nameOf(found ?? { id }, kindWords(id));
}
