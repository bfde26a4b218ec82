import { createApiClient, type ApiClient } from '../../../../core/api/client.ts';
import {
  createSessionMonitor,
  type SessionMonitorOptions,
} from '../../../../core/monitor/monitor.ts';
import type { MonitorEvent } from '../../../../shared/app/monitor.ts';
import { FakeClock } from '../../../support/fake-clock.ts';
import { FAST_RETRY } from '../api/support.ts';

export const PROFILE = 'p1';

/** A client of the sandbox at `url` with test backoffs and room enough never to wait. */
export function testClient(
  url: string,
  apiKey: string,
  onEvent?: Parameters<typeof createApiClient>[0]['onEvent'],
): ApiClient {
  return createApiClient({
    baseUrl: url,
    apiKey,
    rateLimit: { requests: 1_000, windowMs: 1_000 },
    retry: FAST_RETRY,
    onEvent,
  });
}

/**
 * A monitor of one profile whose timers never fire: the test polls with pollNow(), so what a
 * poll sees is what the test made happen before it.
 */
export function drivenMonitor(
  url: string,
  apiKey: string,
  options: Partial<SessionMonitorOptions> = {},
) {
  const events: MonitorEvent[] = [];
  const clock = new FakeClock();
  const monitor = createSessionMonitor({
    clientFor: (_profileId, onEvent) => testClient(url, apiKey, onEvent),
    clock,
    ...options,
  });
  monitor.onEvent((event) => events.push(event));
  monitor.setProfiles([PROFILE]);
  return {
    monitor,
    clock,
    events,
    /** The kinds of the events since the last call. */
    take(): MonitorEvent[] {
      return events.splice(0);
    },
    sessions: () => monitor.snapshot().profiles[0]?.sessions ?? [],
    health: () => monitor.snapshot().profiles[0]?.health,
  };
}
