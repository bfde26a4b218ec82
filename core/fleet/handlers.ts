import type { ActionSource } from '../../shared/app/activity.ts';
import type { fleetCalls } from '../../shared/app/ipc/fleet.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { FleetService } from './service.ts';

/** The fleet calls of the contract, as one door (`source`) makes them. */
export function fleetHandlers(
  fleet: FleetService,
  source: ActionSource,
): HandlersOf<typeof fleetCalls> {
  return {
    'fleet.impact': (request) => fleet.impact(request),
    'fleet.run': (request) => fleet.run(request, source),
    'rollout.impact': (request) => fleet.rolloutImpact(request),
    'rollout.start': (request) => fleet.startRollout(request, source),
    'rollout.pause': (id) => fleet.pauseRollout(id),
    'rollout.resume': (id) => fleet.resumeRollout(id),
    'rollout.cancel': (id) => fleet.cancelRollout(id),
    'rollout.dismiss': (id) => fleet.dismissRollout(id),
    'rollout.state': () => fleet.rolloutState(),
  };
}
