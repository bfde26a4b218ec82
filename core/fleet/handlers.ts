import type { fleetCalls } from '../../shared/app/ipc/fleet.ts';
import type { AppHandlers } from '../ipc/handlers.ts';
import type { FleetService } from './service.ts';

/** The fleet calls of the contract. */
export function fleetHandlers(fleet: FleetService): Pick<AppHandlers, keyof typeof fleetCalls> {
  return {
    'fleet.impact': (request) => fleet.impact(request),
    'fleet.run': (request) => fleet.run(request),
    'rollout.start': (request) => fleet.startRollout(request),
    'rollout.pause': (id) => fleet.pauseRollout(id),
    'rollout.resume': (id) => fleet.resumeRollout(id),
    'rollout.cancel': (id) => fleet.cancelRollout(id),
    'rollout.state': () => fleet.rolloutState(),
  };
}
