import { AGENT_STATES, type AgentState } from '../../../../shared/app/agents.ts';
import { Version, type FleetFilter } from '../../../../shared/app/fleet.ts';
import type { ScreenParams } from '../../../../shared/app/routes.ts';

/*
 * The fleet's filters as the address carries them (`#/sessions?state=offline,lost&os=windows`),
 * so a reload keeps them and a link shares them. A value the address cannot mean (an unknown
 * state, a version not like 3.2.1) is dropped, not an error: a hand-typed link still opens.
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

export function filterOf(params: SessionsParams): FleetFilter {
  const states = list(params.state)?.filter((s): s is AgentState =>
    (AGENT_STATES as readonly string[]).includes(s),
  );
  const below = params.below?.trim();
  const text = params.q?.trim().slice(0, 200);
  return {
    ...(params.profile && { profileIds: list(params.profile) }),
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
