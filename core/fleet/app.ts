import type { NewActivityEntry } from '../../shared/app/activity.ts';
import type { AgentsService } from '../agents/service.ts';
import type { EventHub } from '../ipc/events.ts';
import type { ProfileService } from '../profiles/profiles.ts';
import type { SessionsService } from '../sessions/service.ts';
import { FleetService } from './service.ts';

export type FleetInAppParts = {
  readonly agents: AgentsService;
  readonly profiles: ProfileService;
  readonly sessions: SessionsService;
  readonly record: (entry: NewActivityEntry) => void;
  readonly events: EventHub;
};

/**
 * The fleet as the app runs it: every profile's agents as the registry knows them, acted on
 * through the sessions service, restarted agents looked for in their profile's sessions, and
 * the rollout and its steps told to the windows.
 */
export function fleetInApp({ agents, profiles, sessions, record, events }: FleetInAppParts) {
  const fleet = new FleetService({
    agents: () => agents.snapshot().profiles.flatMap((p) => p.agents),
    profileName: (id) => profiles.state().profiles.find((p) => p.id === id)?.name ?? id,
    run: (request, runOptions) => sessions.run(request, runOptions),
    listSessions: async (profileId, signal) =>
      (await profiles.client(profileId)).client.tunnelSessions.listAll({ signal }),
    record,
  });
  fleet.onChange((rollout) => events.emit('rollout.changed', rollout));
  fleet.onStep((step) => events.emit('rollout.step', step));
  return fleet;
}
