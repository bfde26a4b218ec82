import { describe, expect, it } from 'vitest';
import {
  agentKey,
  isNewerVersion,
  MonitorEvent,
  MonitorSnapshot,
} from '../../../shared/monitor.ts';
import { ActionEvent } from '../../../shared/session-actions.ts';
import { availability } from '../../../shared/session-rules.ts';
import { session, successor } from '../../support/tunnel-sessions.ts';

describe('agent identity', () => {
  const a = session({ metadata: 'a|b' });

  it('survives a restart and an update within the major version', () => {
    expect(agentKey(successor(a))).toBe(agentKey(a));
    expect(agentKey(successor(a, { agent_version: '3.3.0' }))).toBe(agentKey(a));
  });

  it('tells apart what a separator could confuse, and other major versions', () => {
    expect(agentKey(session({ metadata: 'a', region: 'b|us' }))).not.toBe(agentKey(a));
    expect(agentKey(successor(a, { agent_version: '4.0.1' }))).not.toBe(agentKey(a));
  });

  it('compares X.Y.Z versions and nothing else', () => {
    expect(isNewerVersion('3.10.0', '3.9.9')).toBe(true);
    expect(isNewerVersion('3.1.2', '3.1.2')).toBe(false);
    expect(isNewerVersion('OpenSSH_9.3', 'OpenSSH_9.2')).toBe(false);
  });
});

describe('the schemas', () => {
  it('read events and snapshots back from JSON', () => {
    const event = { kind: 'offline', profileId: 'p', at: 1, sessions: [session()] };
    expect(MonitorEvent.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
    expect(MonitorEvent.safeParse({ ...event, sessions: [] }).success).toBe(false);
    expect(MonitorSnapshot.safeParse({ paused: false, profiles: [] }).success).toBe(true);
    const done = {
      phase: 'done',
      action: 'update-and-restart',
      profileId: 'p',
      sessionId: 'ts_1',
      result: {
        ok: false,
        action: 'update-and-restart',
        profileId: 'p',
        sessionId: 'ts_1',
        step: 'update',
        reason: 'No newer version',
        errorCode: 'ERR_SERVICE_332',
        operationId: 'op_1',
      },
    };
    expect(ActionEvent.parse(JSON.parse(JSON.stringify(done)))).toEqual(done);
  });
});

describe('availability', () => {
  it('allows stop everywhere, refuses restart on Windows and all but stop over SSH', () => {
    const windows = { os: 'windows', transport: 'service/v2' } as const;
    const ssh = { os: 'linux', transport: 'ssh' } as const;
    expect(availability(windows, 'stop').allowed).toBe(true);
    expect(availability(windows, 'update').allowed).toBe(true);
    expect(availability(windows, 'update-and-restart')).toMatchObject({
      errorCode: 'ERR_SERVICE_330',
    });
    expect(availability(ssh, 'update')).toMatchObject({ errorCode: 'ERR_SERVICE_331' });
    expect(availability(ssh, 'stop').allowed).toBe(true);
  });
});
