import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../../shared/app/agents.ts';
import { filterAgents, globMatcher } from '../../../../shared/app/fleet-filter.ts';
import { newestByMajor } from '../../../../shared/app/fleet.ts';
import { compareVersions } from '../../../../shared/app/versions.ts';

function agent(name: string, over: Partial<Agent['session']> & { state?: Agent['state'] } = {}) {
  const { state = 'online', ...session } = over;
  return {
    id: `ag_${name}`,
    profileId: 'prf_a',
    name,
    state,
    session: { os: 'linux', region: 'eu', agent_version: '3.2.0', metadata: '', ...session },
  } as unknown as Agent;
}

describe('the fleet filters', () => {
  const fleet = [
    agent('build-box', { agent_version: '3.1.2' }),
    agent('laptop', { os: 'darwin', agent_version: '3.3.0', metadata: '{"team":"mobile"}' }),
    agent('win-runner', { os: 'windows', agent_version: '2.9.9', state: 'offline' }),
    agent('edge-2', { region: 'us', agent_version: '2.10.1' }),
  ];
  const names = (filter: Parameters<typeof filterAgents>[1]) =>
    filterAgents(fleet, filter).map((a) => a.name);

  it('combine: each field narrows, none narrows nothing', () => {
    expect(names({})).toEqual(['build-box', 'laptop', 'win-runner', 'edge-2']);
    expect(names({ os: ['linux'], regions: ['eu'] })).toEqual(['build-box']);
    expect(names({ states: ['offline'] })).toEqual(['win-runner']);
    expect(names({ text: 'MOBILE' })).toEqual(['laptop']);
    expect(names({ name: '*-*', os: ['linux'] })).toEqual(['build-box', 'edge-2']);
  });

  it('versions compare by number, and "outdated" is below the newest of its major', () => {
    expect(compareVersions('3.10.0', '3.9.9')).toBeGreaterThan(0);
    expect(names({ versionBelow: '3.2.0' })).toEqual(['build-box', 'win-runner', 'edge-2']);
    expect(newestByMajor(fleet)).toEqual(
      new Map([
        ['3', '3.3.0'],
        ['2', '2.10.1'],
      ]),
    );
    expect(names({ outdated: true })).toEqual(['build-box', 'win-runner']);
  });

  it('globs match whole names, with regex characters taken literally', () => {
    expect(globMatcher('build-*')('build-box')).toBe(true);
    expect(globMatcher('build-*')('my-build-box')).toBe(false);
    expect(globMatcher('a.b?')('a.bc')).toBe(true);
    expect(globMatcher('a.b?')('axbc')).toBe(false);
    expect(globMatcher('(x')('(x')).toBe(true);
  });
});
