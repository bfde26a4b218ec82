import { expect, it } from 'vitest';
import { API_CALL_NAMES } from '../../../../../shared/app/ipc/api-call-names.ts';
import { API_CALLS } from '../../../../../shared/app/ipc/api-calls.ts';

// The renderer's list of names stands apart from the map core checks calls with (to keep the
// schemas out of its bundle): the two must name the same calls.
it('names exactly the API calls the contract checks', () => {
  expect([...API_CALL_NAMES].sort()).toEqual([...API_CALLS.keys()].sort());
  expect(API_CALL_NAMES.has('api.ipPolicies.listAll')).toBe(true);
});
