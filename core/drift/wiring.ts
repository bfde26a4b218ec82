import type { NewActivityEntry } from '../../shared/app/activity.ts';
import type { IpcImplementation } from '../ipc/dispatch.ts';
import type { EventHub } from '../ipc/events.ts';
import type { SecretStore } from '../profiles/keychain.ts';
import type { ProfileService } from '../profiles/profiles.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { SettingsService } from '../settings/settings.ts';
import { profileAccount } from '../snapshot/account.ts';
import { serializeSnapshot } from '../snapshot/export/export.ts';
import type { HeldSnapshots } from '../snapshot/held-snapshots.ts';
import { changesConfiguration, ownChanges } from './own-changes.ts';
import { DriftService } from './service.ts';

export type DriftParts = {
  readonly profiles: ProfileService;
  readonly settings: SettingsService;
  readonly notifier: Notifier;
  readonly events: EventHub;
  /** The held snapshots: Put back is planned, and then applied, as any plan of theirs. */
  readonly snapshots: HeldSnapshots;
  readonly record: (entry: NewActivityEntry) => void;
  readonly warn: (message: string) => void;
};

/**
 * The app's drift watch over its profiles: started on the baselines kept, its state sent to the
 * windows, a drift told as a notice and kept as an activity entry, a removed profile's baseline
 * deleted.
 */
export async function startDriftWatch(
  app: { readonly dataDir: string; readonly secrets: SecretStore },
  parts: DriftParts,
  { owner }: { readonly owner: boolean } = { owner: true },
): Promise<DriftService> {
  const { profiles, settings, notifier, snapshots } = parts;
  const listed = () => profiles.state().profiles;
  const nameOf = (id: string) => listed().find((p) => p.id === id)?.name ?? id;
  const drift = new DriftService({
    dataDir: app.dataDir,
    secrets: app.secrets,
    snapshots: snapshots.service,
    settings: () => settings.get().drift,
    profiles: {
      list: listed,
      account: async (id) => {
        // A profile removed meanwhile is named by its id, at its id, until its watch stops.
        const profile = listed().find((p) => p.id === id) ?? {
          id,
          name: id,
          kind: 'remote' as const,
          baseUrl: id,
        };
        return profileAccount(profile, (await profiles.client(id)).client);
      },
    },
    // A command tells nobody (it prints what it finds): the app tells a drift it finds once.
    ...(owner && {
      tell: (profileId: string, { id, summary }: { id: string; summary: string }) => {
        const at = Date.now();
        notifier.hear({ kind: 'drift-found', profileId, at, driftId: id, summary });
        // Without the profile's name, as every entry: Activity names it in a column.
        const title = 'Changed outside Burrow';
        parts.record({ kind: 'notice', at, profileId, title, detail: summary, notice: 'drift' });
      },
    }),
    stopped: (profileId, message) => {
      parts.warn(message);
      const title = 'No longer watched for drift';
      parts.record({
        kind: 'notice',
        at: Date.now(),
        profileId,
        title,
        detail: message,
        notice: 'drift',
      });
    },
    planBack: async (profileId, document) => {
      const fileName = `the baseline of ${nameOf(profileId)}`;
      const text = serializeSnapshot(document);
      const { snapshotId } = await snapshots.open({ fileName, text });
      const source = { type: 'snapshot' as const, snapshotId };
      return snapshots.plan({ source, targetProfileId: profileId, prune: true });
    },
  });
  drift.onChange((state) => parts.events.emit('drift.changed', state));
  profiles.onChange(() => void drift.profilesChanged());
  let interval = settings.get().drift.intervalMinutes;
  settings.onChange(({ drift: { intervalMinutes } }) => {
    if (intervalMinutes !== interval) drift.intervalChanged();
    interval = intervalMinutes;
  });
  // Only the app tidies the baselines of removed profiles: a command leaves the folder as it is.
  await drift.init(owner);
  return drift;
}

/**
 * What Burrow changes on the active profile's account is kept as its baseline, so Drift finds
 * only the others': `changed` after an edit of its own (Expose a service), and `call`, the API's
 * calls, whose writes to the configuration (a resource edited in the window, or by a command
 * inside the app) are kept once they are answered, without holding the answer back.
 */
export function keepOwnChanges(
  drift: Pick<DriftService, 'applied'>,
  profiles: Pick<ProfileService, 'activeProfile'>,
  call: IpcImplementation['call'],
): { changed: () => Promise<void>; call: IpcImplementation['call'] } {
  const keep = ownChanges((profileId) => drift.applied(profileId));
  const changed = async () => {
    const active = profiles.activeProfile();
    if (active) await keep(active.id);
  };
  return {
    changed,
    call: async (entry, request) => {
      const answer = await call(entry, request);
      if (changesConfiguration(entry.endpoint)) void changed();
      return answer;
    },
  };
}
