import { ENDPOINTS } from '../../api/catalog/endpoints.ts';

/*
 * Apart from api-calls.ts, whose schemas of each call's arguments core checks: the renderer asks
 * only whether a name is a call, and importing the whole map put those schemas in its bundle.
 */

/** The call that reads every page of list endpoint `listName` (`ipPolicies.list`). */
export function listAllCallName(listName: string): string {
  return `api.${listName.slice(0, -'.list'.length)}.listAll`;
}

/** Every API call of the contract by name: each endpoint's, and a `listAll` beside each list. */
export const API_CALL_NAMES: ReadonlySet<string> = new Set(
  ENDPOINTS.flatMap((e) =>
    'listKey' in e ? [`api.${e.name}`, listAllCallName(e.name)] : [`api.${e.name}`],
  ),
);
