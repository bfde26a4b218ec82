import { render } from '@testing-library/svelte';
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import '../../renderer/src/app.css';
import type { Rollout } from '../../shared/app/fleet.ts';
import type { ProfilesState } from '../../shared/app/ipc/profiles.ts';
import { Settings } from '../../shared/app/ipc/settings.ts';
import { PROFILE_COLOURS } from '../../renderer/src/lib/profile-colours.ts';
import { agentsOf, someAgent, watched } from './support/agents.ts';
import { scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

/*
 * Each profile's mark on the Sessions screen (its heading in the fleet, its agents in a rolling
 * update) takes the palette's colour of its place in the profile list, for the theme in force.
 */

const PROFILES: ProfilesState = {
  ...SOME_PROFILES,
  profiles: [
    ...SOME_PROFILES.profiles,
    { id: 'prf_stage0001', name: 'Staging', baseUrl: 'https://api.example.com', kind: 'remote' },
  ],
};
const IDS = PROFILES.profiles.map((profile) => profile.id);
const FLEET = Object.fromEntries(IDS.map((id, i) => [id, [someAgent(id, `box-${i}`)]]));

function rolloutOf(): Rollout {
  return {
    id: 'ro_1',
    state: 'running',
    options: { batch: 1, canary: 0, onFailure: 'skip', onlineTimeoutMs: 60_000 },
    agents: PROFILES.profiles.map((profile, i) => {
      const agent = FLEET[profile.id]![0]!;
      return {
        agent: { profileId: profile.id, agentId: agent.id },
        name: agent.name,
        profileName: profile.name,
        os: agent.session.os,
        batch: i,
        state: 'pending',
        until: null,
        versionBefore: '3.1.2',
        versionAfter: null,
        reason: null,
      };
    }),
    finished: 0,
    total: IDS.length,
    startedAt: Date.now(),
    endedAt: null,
    remainingMs: 180_000,
    line: `Rolling update: 0 of ${IDS.length}`,
    dismissed: false,
  };
}

/** What `colour` resolves to, as the browser writes a computed colour. */
function resolved(colour: string): string {
  const probe = document.body.appendChild(document.createElement('span'));
  probe.style.color = colour;
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}
const markOf = (row: HTMLElement) => {
  const mark = row.querySelector('.mark');
  if (!mark) throw new Error(`no mark in ${row.textContent}`);
  return getComputedStyle(mark).backgroundColor;
};

// The theme the settings chose stays on <html> after the window is gone.
afterEach(() => {
  delete document.documentElement.dataset['theme'];
});

it.each(['light', 'dark'] as const)(
  'marks each profile with its place’s colour on the %s theme, in the fleet and a rolling update',
  async (theme) => {
    window.location.hash = '#/sessions';
    render(App, {
      bridge: scriptedBridge({
        'settings.get': () => Settings.parse({ theme }),
        'profiles.state': () => PROFILES,
        'sessions.snapshot': () => watched(...IDS),
        'agents.snapshot': () => agentsOf(FLEET),
        'rollout.state': () => rolloutOf(),
      }),
    });
    const steps = page.getByRole('table', { name: "Rolling update's agents" });
    for (const [i, profile] of PROFILES.profiles.entries()) {
      const expected = resolved(PROFILE_COLOURS[i]![theme]);
      const heading = page.getByRole('row', { name: `${profile.name} 1 agent`, exact: true });
      await expect.element(heading).toBeVisible();
      expect(markOf(heading.element() as HTMLElement), profile.name).toBe(expected);
      const step = steps.getByRole('row', { name: `box-${i}`, exact: true });
      await expect.element(step).toBeInTheDocument();
      expect(markOf(step.element() as HTMLElement), profile.name).toBe(expected);
    }
  },
);
