import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type Options } from '../../../cli/args.ts';
import { actionCommand, type SessionsDoor } from '../../../cli/session-actions.ts';
import { openTarget, type Target } from '../../../cli/target.ts';
import { sessionHandlers, type SessionParts } from '../../../core/sessions/handlers.ts';
import type { SessionsService } from '../../../core/sessions/service.ts';
import type { SessionActionRequest } from '../../../shared/app/ipc/sessions.ts';
import { quietIo } from '../../support/quiet-io.ts';
import { startSandbox, type Sandbox } from '../core/api/support.ts';

let sandbox: Sandbox;
let target: Target;
const options: Options = { ...DEFAULT_OPTIONS, json: true, restart: true };
const io = quietIo('/');

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'cli-door', rateLimit: 'off', demo: true });
  target = await openTarget(
    { ...options, apiUrl: sandbox.url },
    { ...io, env: { BURROW_API_KEY: sandbox.apiKey } },
  );
});

afterAll(async () => {
  await target.close();
  await sandbox.close();
});

/** A stand-in sessions service: it records each call and answers that the action was done. */
function recording() {
  const calls: [string, SessionActionRequest][] = [];
  const service: SessionsDoor = {
    run: (request) => {
      calls.push(['run', request]);
      return Promise.resolve({ ok: true, ...request });
    },
    onAction: () => () => undefined,
    close: () => undefined,
  };
  return { calls, service };
}

it('burrow restart|update --restart and the window reach the same service method', async () => {
  const { calls, service } = recording();
  const [buildBox] = (await target.client.tunnelSessions.listAll()).filter((s) =>
    s.metadata?.includes('build-box'),
  );
  const sessionId = buildBox?.id ?? '';
  expect(await actionCommand('restart', target, 'build-box', options, io, () => service)).toBe(0);
  expect(await actionCommand('update', target, sessionId, options, io, () => service)).toBe(0);
  const parts = { sessions: service as SessionsService } as Partial<SessionParts> as SessionParts;
  const window = sessionHandlers(parts);
  for (const action of ['restart', 'update-and-restart'] as const)
    await window['sessions.run']({ profileId: target.profileId, sessionId, action });

  const request = (action: SessionActionRequest['action']) =>
    ['run', { profileId: target.profileId, sessionId, action }] as const;
  expect(calls).toEqual([
    request('restart'),
    request('update-and-restart'),
    request('restart'),
    request('update-and-restart'),
  ]);
});
