import type { Bridge } from '../../../../shared/app/ipc/bridge.ts';
import type { ProfilesState } from '../../../../shared/app/ipc/profiles.ts';
import type { AppState } from '../../stores/app-state.svelte.ts';
import type { ResourceKind } from '../kinds/kind-shape.ts';
import { kindAt } from '../kinds/kind-list.ts';
import { ResourceList } from './resource-list.svelte.ts';

/*
 * A list's first page is asked for as the address changes to its kind, not once its screen has
 * mounted: mounting the screen took 15–20 ms, which the calls now run beside. The screen takes
 * the list started for it; one that no screen took by the end of the turn its address was
 * followed in (the address changed again) is dropped, and its answers with it.
 */
let started: ResourceList | undefined;

/** Whether lists load: once there is an active profile, and not while the Local sandbox starts. */
export function listsLoad(profiles: ProfilesState | undefined): boolean {
  return (profiles?.activeId ?? '') !== '' && profiles?.local.state !== 'starting';
}

type Address = { readonly screen: string; readonly path: readonly string[] };

/**
 * On a change of address to a resource section: starts the list of the kind it names (for a
 * resource's page too, whose screen holds its kind's list), unless that kind's screen stays.
 */
export function startListAt(app: AppState, from: Address, to: Address): void {
  started = undefined;
  const { kind } = kindAt(to.screen, to.path);
  const stays = from.screen === to.screen && kindAt(from.screen, from.path).kind === kind;
  if (!kind || stays || !listsLoad(app.profiles)) return;
  const list = new ResourceList(app.bridge, kind, app.profiles?.activeId ?? '');
  started = list;
  void list.preload();
}

/** Called as the new address is followed: after the screen it mounts, drops what it did not take. */
export function dropUntakenList(): void {
  const list = started;
  setTimeout(() => {
    if (started === list) started = undefined;
  });
}

/** The list started for this kind and profile, once: undefined when the screen makes its own. */
export function takeStartedList(
  bridge: Bridge,
  kind: ResourceKind,
  scope: string,
): ResourceList | undefined {
  const list = started;
  started = undefined;
  return list?.bridge === bridge && list.kind === kind && list.scope === scope ? list : undefined;
}
