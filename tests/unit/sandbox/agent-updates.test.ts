import { afterEach, describe, expect, it, vi } from 'vitest';
import { UPDATE_SETTLE_MS, Updater } from '../../../sandbox/agent/updates.ts';
import { AGENT_RELEASES, isAgentVersion, updateTarget } from '../../../sandbox/tunnel/releases.ts';

describe('the release list', () => {
  it('moves to the newest release of the same major only', () => {
    expect(updateTarget('3.0.0', AGENT_RELEASES)).toBe('3.3.0');
    expect(updateTarget('3.2.9', AGENT_RELEASES)).toBe('3.3.0');
    expect(updateTarget('3.3.0', AGENT_RELEASES)).toBeUndefined();
    expect(updateTarget('3.10.0', AGENT_RELEASES)).toBeUndefined();
    expect(updateTarget('2.9.3', AGENT_RELEASES)).toBeUndefined();
    expect(updateTarget('4.0.0', AGENT_RELEASES)).toBe('4.0.1');
    expect(updateTarget('5.0.0', AGENT_RELEASES)).toBeUndefined();
  });

  it('takes plain X.Y.Z versions', () => {
    for (const good of ['0.0.0', '3.1.2', '10.20.30']) expect(isAgentVersion(good)).toBe(true);
    for (const bad of ['3.1', '03.1.2', '3.1.2-rc1', 'v3.1.2', '3.1.2 '])
      expect(isAgentVersion(bad), bad).toBe(false);
  });
});

describe('Updater', () => {
  afterEach(() => vi.useRealTimers());

  it('goes idle → updating → updated, refusing with the code of each state', () => {
    vi.useFakeTimers();
    const updater = new Updater('3.1.2', true, 1_000, () => Date.now());
    expect(updater.update(AGENT_RELEASES)).toBeUndefined();
    expect(updater.update(AGENT_RELEASES)).toBe('alreadyUpdating');
    vi.advanceTimersByTime(1_000);
    expect(updater.update(AGENT_RELEASES)).toBe('updatedAwaitingRestart');
    expect(updater.versionForRestart()).toBe('3.1.2');
  });

  it('runs the new version on a restart the spec’s 10 s after the update, not after its download', () => {
    vi.useFakeTimers();
    const updater = new Updater('3.1.2', true, 1_500, () => Date.now());
    expect(updater.update(AGENT_RELEASES)).toBeUndefined();
    vi.advanceTimersByTime(UPDATE_SETTLE_MS - 1);
    expect(updater.versionForRestart()).toBe('3.1.2');
    vi.advanceTimersByTime(1);
    expect(updater.versionForRestart()).toBe('3.3.0');
  });

  it('takes no download that outlasts the wait', () => {
    expect(() => new Updater('3.1.2', true, UPDATE_SETTLE_MS)).toThrow(/less than/);
  });

  it('refuses when checks are off, and when nothing is newer', () => {
    expect(new Updater('3.1.2', false, 1).update(AGENT_RELEASES)).toBe('updateChecksDisabled');
    expect(new Updater('3.3.0', true, 1).update(AGENT_RELEASES)).toBe('noUpdateAvailable');
  });
});
