import { AGENT_STATES, type AgentState } from '../../../../shared/app/agents.ts';
import { Version, type FleetFilter } from '../../../../shared/app/fleet.ts';
import type { Profile } from '../../../../shared/app/ipc/profiles.ts';
import type { ScreenParams } from '../../../../shared/app/routes.ts';

/*
 * The fleet's filters as the address carries them (`#/sessions?state=offline,lost&os=windows`),
 * so a reload keeps them and a link shares them. A value the address cannot mean (an unknown
 * state, a version not like 3.2.1) is dropped, not an error: a hand-typed link still opens. A
 * profile is named by its id, as the window's own links name it, or by its name, as a person
 * writes one.
 */

export type SessionsParams = ScreenParams<'sessions'>;

/** The address's params that are filters (the others open an agent). */
export const FILTER_PARAMS = [
  'profile',
  'state',
  'os',
  'region',
  'below',
  'outdated',
  'q',
] as const;

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

type NamedProfile = Pick<Profile, 'id' | 'name'>;

/**
 * The profiles the address's `profile` names, each part by its id or by its name whatever its
 * case; `unknown` keeps the parts that name none, as they were written.
 */
export function profilesNamed(
  param: string | undefined,
  profiles: readonly NamedProfile[],
): { readonly ids: string[]; readonly unknown: string[] } {
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const part of list(param) ?? []) {
    const found =
      profiles.find((p) => p.id === part) ??
      profiles.find((p) => p.name.toLowerCase() === part.toLowerCase());
    if (found) ids.push(found.id);
    else if (!unknown.includes(part)) unknown.push(part);
  }
  return { ids, unknown };
}

export function filterOf(params: SessionsParams, profiles: readonly NamedProfile[]): FleetFilter {
  const named = profilesNamed(params.profile, profiles);
  const states = list(params.state)?.filter((s): s is AgentState =>
    (AGENT_STATES as readonly string[]).includes(s),
  );
  const below = params.below?.trim();
  const text = params.q?.trim().slice(0, 200);
  return {
    // A name that is no profile's stays in the filter as written, where it is no profile's id
    // either: it keeps no agent, rather than dropping the filter and showing all of them.
    ...(params.profile && { profileIds: [...named.ids, ...named.unknown] }),
    ...(states?.length && { states }),
    ...(params.os && { os: list(params.os) }),
    ...(params.region && { regions: list(params.region) }),
    ...(below && Version.safeParse(below).success && { versionBelow: below }),
    ...(params.outdated === '1' && { outdated: true }),
    ...(text && { text }),
  };
}

export type FilterParam = (typeof FILTER_PARAMS)[number];

/** `params` with one filter set (or cleared by an empty value), the agent-opening ones dropped. */
export function withFilter(
  params: SessionsParams,
  name: FilterParam,
  value: string,
): SessionsParams {
  const kept: SessionsParams = {};
  for (const key of FILTER_PARAMS) if (params[key]) kept[key] = params[key];
  if (value === '') delete kept[name];
  else kept[name] = value;
  return kept;
}

export function hasFilter(params: SessionsParams): boolean {
  return FILTER_PARAMS.some((key) => params[key]);
}
