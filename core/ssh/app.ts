import { alertRulesOf } from '../../shared/app/ipc/settings.ts';
import type { EventHub } from '../ipc/events.ts';
import type { Notifier, NotifierOptions } from '../notify/notifier.ts';
import type { ProfileService } from '../profiles/profiles.ts';
import type { SettingsService } from '../settings/settings.ts';
import type { KeyValueStore } from '../store.ts';
import { watchLeadTimes } from './renewal/lead-watch.ts';
import { watchRenewals } from './renewal/watch.ts';
import { createSshService, type SshService } from './service.ts';

export type SshInAppOptions = {
  readonly profiles: ProfileService;
  readonly store: KeyValueStore;
  readonly home?: string | undefined;
  readonly events: EventHub;
  readonly notifier: Notifier;
  readonly settings: SettingsService;
  readonly now?: NotifierOptions['now'];
};

/**
 * The SSH service as the app runs it: a profile's client asked on each call (the active one to
 * sign, the one that signed a saved certificate to renew it), and its saved certificates
 * watched for renewal and for each profile's lead time, told as notices. `watch` starts the
 * watches, whose first check tells what is due at once: called once the app is assembled and
 * its events have listeners, so that nothing is told to no one.
 */
export function sshInApp(options: SshInAppOptions): {
  ssh: SshService;
  watch: () => () => void;
} {
  const { profiles, events, notifier, settings } = options;
  const ssh = createSshService({
    api: async (profileId) => {
      const { profileId: id, client } = await profiles.client(profileId);
      return { profileId: id, api: client };
    },
    store: options.store,
    ...(options.home !== undefined && { home: options.home }),
  });
  const watchRenewalsAndLeadTimes = () => {
    const stopRenewalWatch = watchRenewals(ssh, (expiring) => {
      events.emit('ssh.certificateExpiring', expiring);
      const { certId, name, expiresAt } = expiring;
      const profileId = ssh.listSaved().find((s) => s.id === certId)?.profileId;
      notifier.hear({
        kind: 'certificate-expiring',
        certId,
        name,
        expiresAt,
        at: Date.now(),
        ...(profileId !== undefined && { profileId }),
      });
    });
    const stopLeadTimeWatch = watchLeadTimes({
      saved: () => ssh.listSaved(),
      leadDaysOf: (id) => alertRulesOf(settings.get(), id).certificateLeadDays,
      hear: (event) => notifier.hear(event),
      ...(options.now && { now: options.now }),
    });
    return () => {
      stopRenewalWatch();
      stopLeadTimeWatch();
    };
  };
  return { ssh, watch: watchRenewalsAndLeadTimes };
}
