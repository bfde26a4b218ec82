import { expect, it } from 'vitest';
import { SessionsService } from '../../../../core/sessions/service.ts';
import { dispatchIpc } from '../../../../core/ipc/dispatch.ts';
import type { AppHandlers } from '../../../../core/ipc/handlers.ts';
import { MAX_MUTED_AGENTS } from '../../../../shared/app/ipc/settings.ts';
import { memorySettings } from '../support.ts';

it('refuses the 1,001st muted agent with the limit named, and still unmutes', async () => {
  const settings = memorySettings();
  settings.update({
    mutedAgents: Array.from({ length: MAX_MUTED_AGENTS }, (_, i) => `agent-${i}`),
  });
  const sessions = new SessionsService({
    watched: {
      findSession: () => undefined,
      expect: () => undefined,
      pollNow: () => Promise.resolve(),
    },
    client: () => Promise.reject(new Error('no calls in this test')),
    settings,
  });
  const calls = {
    'sessions.mute': (key: string, muted: boolean) => sessions.mute(key, muted),
  } as Partial<AppHandlers> as AppHandlers;
  const implementation = {
    calls,
    call: () => Promise.reject(new Error('unused')),
    listAll: () => Promise.reject(new Error('unused')),
  };

  const refused = await dispatchIpc(implementation, 'sessions.mute', ['agent-new', true]);
  expect(refused).toEqual({
    ok: false,
    error: expect.objectContaining({
      code: 'SESSIONS_MUTE_LIMIT',
      message: 'At most 1,000 agents can be muted: unmute one first',
      field: 'agentKey',
    }),
  });
  // Muting one already muted is no new entry, and unmuting frees a place.
  expect(sessions.mute('agent-7', true)).toHaveLength(MAX_MUTED_AGENTS);
  expect(sessions.mute('agent-7', false)).toHaveLength(MAX_MUTED_AGENTS - 1);
  expect(sessions.mute('agent-new', true)).toContain('agent-new');
});
