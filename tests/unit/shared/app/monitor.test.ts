import { describe, expect, it } from 'vitest';
import {
  agentDisplayName,
  agentKey,
  agentName,
  isNewerVersion,
  MonitorEvent,
  MonitorSnapshot,
} from '../../../../shared/app/monitor.ts';
import { ActionEvent } from '../../../../shared/app/sessions/actions.ts';
import { availability } from '../../../../shared/app/sessions/rules.ts';
import { session, successor } from '../../../support/tunnel-sessions.ts';

describe('agent names', () => {
  const named = (metadata: string) => agentName(session({ metadata }));

  it('reads the name of JSON metadata, whichever name key it uses', () => {
    expect(named('{"host":"build-box"}')).toBe('build-box');
    expect(named('{"team":"ops","Hostname":"db-1"}')).toBe('db-1');
    expect(named('{"name":"web","host":"ignored"}')).toBe('web');
  });

  it('lists the plain values of JSON without a name, and takes anything else as it is', () => {
    expect(named('{"team":"ops","rack":7,"tags":["a"]}')).toBe('team ops, rack 7');
    expect(named('{"nested":{"host":"x"}}')).toBe('{"nested":{"host":"x"}}');
    expect(named('{not json')).toBe('{not json');
    expect(named('  office pc  ')).toBe('office pc');
    expect(named('[1,2]')).toBe('[1,2]');
    expect(named('   ')).toBeUndefined();
  });

  it('calls an agent without a name by where it runs', () => {
    const bare = session({ metadata: '' });
    expect(agentDisplayName(bare)).toBe(`${bare.os} · ${bare.region} · ${bare.ip}`);
    expect(agentDisplayName(session({ metadata: '{"host":"laptop"}' }))).toBe('laptop');
  });

  it('keeps names short without splitting a character', () => {
    const long = named('é'.repeat(30) + '🦊'.repeat(30));
    expect([...(long ?? '')]).toHaveLength(40);
    expect(long?.endsWith('🦊…')).toBe(true);
  });
});

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
      agent: 'web',
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
