import { expect, it } from 'vitest';
import type { Agent } from '../../../shared/app/agents.ts';
import { fleetLines, type FleetLine } from '../../../renderer/src/screens/sessions/fleet-view.ts';

const agent = (profileId: string, id: string) => ({ id, profileId }) as Agent;
const PROFILES = [
  { id: 'local', name: 'Local' },
  { id: 'staging', name: 'Staging' },
];
const read = (lines: FleetLine[]) =>
  lines.map((line) => (line.kind === 'profile' ? `# ${line.profile.name}` : line.agent.id));

const fleet = [
  agent('local', 'laptop'),
  agent('local', 'local-b'),
  agent('local', 'office-pc'),
  agent('staging', 's-1'),
  agent('staging', 's-2'),
];

it("puts each agent under its own profile's heading, whatever order was held", () => {
  // Held while a filter showed only some of them (s-2 and local-b), across both profiles.
  expect(read(fleetLines(fleet, PROFILES, ['s-2', 'local-b']))).toEqual([
    '# Local',
    'local-b',
    'laptop',
    'office-pc',
    '# Staging',
    's-2',
    's-1',
  ]);
});

it('lists in the order given when nothing is held, with no headings for one profile', () => {
  expect(read(fleetLines(fleet.slice(0, 2), undefined, undefined))).toEqual(['laptop', 'local-b']);
  expect(read(fleetLines([], PROFILES, undefined))).toEqual([]);
});
