import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../../../core/api/client.ts';
import { unavailableDialogs } from '../../../../core/dialogs/index.ts';
import { DriftService, type DriftServiceOptions } from '../../../../core/drift/service.ts';
import { ipcErrorOf } from '../../../../core/ipc/dispatch.ts';
import { profileOwner } from '../../../../core/snapshot/account.ts';
import { SnapshotService } from '../../../../core/snapshot/service.ts';
import { HeldSnapshots } from '../../../../core/snapshot/held-snapshots.ts';
import type { Drift } from '../../../../shared/app/ipc/drift.ts';
import type { Profile } from '../../../../shared/app/ipc/profiles.ts';
import { testKeychain } from '../profiles/support.ts';

export const PROFILE: Profile = {
  id: 'prf_staging01',
  name: 'Staging',
  baseUrl: 'http://127.0.0.1:1',
  kind: 'remote',
};

/** A clock the test moves: timers are kept, never fired on their own. */
export function testClock(start = Date.parse('2026-11-26T10:00:00Z')) {
  let now = start;
  const timers: { at: number; callback: () => void; cancelled: boolean }[] = [];
  return {
    now: () => now,
    setTimer: (callback: () => void, ms: number) => {
      const timer = { at: now + ms, callback, cancelled: false };
      timers.push(timer);
      return { cancel: () => void (timer.cancelled = true) };
    },
    advance(ms: number) {
      now += ms;
    },
    pending: () => timers.filter((t) => !t.cancelled),
  };
}

/**
 * Drift watch over one profile of a real sandbox, with the real keychain, the real snapshot
 * service and the held snapshots for Put back; told drifts are kept in `told`.
 */
export async function driftOver(
  api: ApiClient,
  cleanup: (() => Promise<unknown>)[],
  options: Partial<DriftServiceOptions> = {},
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'burrow-drift-'));
  const secrets = await testKeychain();
  cleanup.push(
    () => rm(dataDir, { recursive: true, force: true }),
    () => secrets.delete('burrow-drift-key'),
  );
  const snapshots = new SnapshotService({ dataDir, holder: 'a test' });
  const told: Drift[] = [];
  let profiles: Profile[] = [PROFILE];
  const window: HeldSnapshots = new HeldSnapshots({
    service: snapshots,
    profiles: {
      state: () => ({ profiles }),
      client: async (id) => ({ profileId: id, client: api }),
    },
    dialogs: unavailableDialogs,
    onProgress: () => undefined,
    describe: ipcErrorOf,
    onApplied: (id) => drift.applied(id),
  });
  const clock = testClock();
  const drift = new DriftService({
    dataDir,
    secrets,
    snapshots,
    settings: () => ({ intervalMinutes: 15, budgetPercent: 25 }),
    profiles: {
      list: () => profiles,
      account: async (id) => ({
        client: api,
        apiUrl: 'http://sandbox.test',
        label: PROFILE.name,
        owner: profileOwner(id),
      }),
    },
    tell: (_, found) => told.push(found),
    planBack: async (profileId, document) => {
      const text = JSON.stringify(document);
      const { snapshotId } = await window.open({ fileName: 'baseline', text });
      return window.plan({
        source: { type: 'snapshot', snapshotId },
        targetProfileId: profileId,
        prune: true,
      });
    },
    now: clock.now,
    setTimer: clock.setTimer,
    ...options,
  });
  cleanup.push(async () => drift.close());
  await drift.init();
  const removeProfile = async () => {
    profiles = [];
    await drift.profilesChanged();
  };
  return { drift, dataDir, secrets, told, window, clock, snapshots, removeProfile };
}
