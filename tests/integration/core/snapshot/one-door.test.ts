import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { unavailableDialogs } from '../../../../core/dialogs/index.ts';
import type { ApplyResult } from '../../../../core/snapshot/apply/apply.ts';
import { snapshotHandlers } from '../../../../core/snapshot/handlers.ts';
import { openSnapshot } from '../../../../core/snapshot/open/open.ts';
import { planSnapshot } from '../../../../core/snapshot/plan/plan.ts';
import type { Planned, SnapshotService } from '../../../../core/snapshot/service.ts';
import { HeldSnapshots } from '../../../../core/snapshot/held-snapshots.ts';
import { policiesSnapshot } from './accounts.ts';

/*
 * One door: the window's `snapshots.*` calls, which `burrow export|plan|apply` make too through
 * their door, reach the snapshot service's methods, here a stand-in that records them.
 */

const document = policiesSnapshot(2);
const empty = policiesSnapshot(0);

function recordingService() {
  const calls: string[] = [];
  const plan = planSnapshot(document, empty);
  const planned: Planned = {
    fresh: plan,
    plan,
    resumed: false,
    done: 0,
    source: 's',
    journalId: '0123456789abcdef',
  };
  const result: ApplyResult = {
    created: 2,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    resumed: false,
    ids: {},
  };
  const service = {
    open: (fileName: string, text: string) => (calls.push('open'), openSnapshot(fileName, text)),
    read: () => (calls.push('read'), Promise.resolve(document)),
    plan: () => (calls.push('plan'), Promise.resolve(planned)),
    apply: () => (calls.push('apply'), Promise.resolve(result)),
    stopped: () => (calls.push('stopped'), Promise.resolve([])),
    carryOn: () => (calls.push('carryOn'), Promise.resolve(planned)),
    discard: () => (calls.push('discard'), Promise.resolve()),
  };
  return { calls, service: service as unknown as SnapshotService };
}

const client = {} as ApiClient;

function window(service: SnapshotService) {
  const profile = { id: 'prf_staging', name: 'Staging', baseUrl: 'https://api.example.com' };
  const snapshots = new HeldSnapshots({
    service,
    profiles: {
      state: () => ({ profiles: [{ ...profile, kind: 'remote' } as never] }),
      client: () => Promise.resolve({ profileId: profile.id, client }),
    },
    dialogs: unavailableDialogs,
    onProgress: () => undefined,
    describe: (error) => ({ code: 'X', message: String(error) }),
  });
  return snapshotHandlers(snapshots);
}

describe('one door for the window and the command line', () => {
  it('export, open, plan, apply and stopped reach the service', async () => {
    const app = recordingService();
    const handlers = window(app.service);
    await handlers['snapshots.export']({
      profileId: 'prf_staging',
      withSecrets: false,
      to: 'document',
    });
    const { snapshotId } = await handlers['snapshots.open']({
      fileName: 'two.json',
      text: JSON.stringify(document),
    });
    const { planId } = await handlers['snapshots.plan']({
      source: { type: 'snapshot', snapshotId },
      targetProfileId: 'prf_staging',
      prune: false,
    });
    await handlers['snapshots.apply']({ planId, requestId: 'r1' });
    await handlers['snapshots.stopped']({ profileId: 'prf_staging' });

    expect(app.calls).toEqual(['read', 'open', 'plan', 'apply', 'stopped']);
  });
});
