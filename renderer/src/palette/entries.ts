import type { Agent } from '../../../shared/app/agents.ts';
import { routeHref, SCREENS, type ScreenId } from '../../../shared/app/routes.ts';
import type { SessionAction } from '../../../shared/app/sessions/rules.ts';
import { hrefOf, type Item, type ResourceKind } from '../resources/kinds/kind-shape.ts';
import { actionsOf, isGone } from '../screens/sessions/agent-view.ts';
import { findable, type Findable } from './search.ts';
import { SHORTCUTS } from './shortcuts.ts';

/*
 * The palette's index: everything it can find, as entries with a name to show, an id to match
 * and what choosing it does. Built from what the window already holds (screens, every profile's
 * agents) and the active profile's resources the palette read when it opened.
 */

/** What choosing an entry does: go somewhere, or an action through the Sessions screen's doors. */
export type PaletteTarget =
  | { readonly type: 'go'; readonly href: string }
  | { readonly type: 'agent'; readonly agent: Agent; readonly action: SessionAction }
  | { readonly type: 'fleet'; readonly action: SessionAction; readonly label: string };

export type PaletteEntry = Findable & {
  /** What it is, in a word or two: "Screen", "IP policy", "Agent · Work". */
  readonly detail: string;
  readonly target: PaletteTarget;
  /** The keys that do the same, shown beside it ("g e"). */
  readonly keys?: string | undefined;
};

const entry = (e: Omit<PaletteEntry, 'lower' | 'lowerId'>): PaletteEntry => findable(e);

export function screenEntries(): PaletteEntry[] {
  return SCREENS.map((screen) =>
    entry({
      key: `screen:${screen.id}`,
      label: screen.label,
      detail: 'Screen',
      keys: SHORTCUTS.find((s) => s.screen === (screen.id as ScreenId))?.keys,
      target: { type: 'go', href: routeHref({ screen: screen.id }) },
    }),
  );
}

/** Every agent of every profile, and the actions each can take now, named after it. */
export function agentEntries(
  agents: readonly Agent[],
  profileName: (profileId: string) => string,
  pendingOf: (agent: Agent) => SessionAction | undefined,
): PaletteEntry[] {
  return agents.flatMap((agent) => {
    const where = profileName(agent.profileId);
    const open = entry({
      key: `agent:${agent.id}`,
      label: agent.name,
      detail: `Agent · ${where}`,
      target: {
        type: 'go',
        href: routeHref({
          screen: 'sessions',
          params: { profile: agent.profileId, agent: agent.id },
        }),
      },
    });
    if (isGone(agent)) return [open];
    const actions = actionsOf(agent, pendingOf(agent))
      .filter((a) => a.blocked === null)
      .map((a) =>
        entry({
          key: `agent:${a.action}:${agent.id}`,
          label: `${a.label} ${agent.name}`,
          detail: `Agent action · ${where}`,
          target: { type: 'agent', agent, action: a.action },
        }),
      );
    return [open, ...actions];
  });
}

/** The fleet's actions on every connected agent: each asks first with core's word on it. */
export function fleetEntries(connected: number): PaletteEntry[] {
  if (connected === 0) return [];
  const actions: readonly [SessionAction, string, string][] = [
    ['restart', 'Restart', 'Restart all agents…'],
    ['update', 'Update', 'Update all agents…'],
    ['stop', 'Stop', 'Stop all agents…'],
  ];
  return actions.map(([action, label, title]) =>
    entry({
      key: `fleet:${action}`,
      label: title,
      detail: `Fleet · ${connected} connected`,
      target: { type: 'fleet', action, label },
    }),
  );
}

/** A kind's resources by their description; one without reads as its kind, its id beside it. */
export function resourceEntries(kind: ResourceKind, items: readonly Item[]): PaletteEntry[] {
  const detail = kind.singular.charAt(0).toUpperCase() + kind.singular.slice(1);
  return items.map((item) =>
    entry({
      key: `resource:${item.id}`,
      label: item.description || `Unnamed ${kind.singular}`,
      id: item.id,
      detail,
      target: { type: 'go', href: hrefOf(kind, item.id) },
    }),
  );
}
