import type { CertificateExpiring } from '../../../shared/app/notifications.ts';
import type { SavedCertificate } from '../../../shared/app/ssh/results.ts';
import { withinLeadTime } from './lead.ts';
import { watchRenewals } from './watch.ts';

export type LeadTimeWatchOptions = {
  /** The certificates saved on this machine (core/ssh's `listSaved`). */
  readonly saved: () => readonly SavedCertificate[];
  /** A profile's certificate lead time in days, or null when it has none (its alert rules). */
  readonly leadDaysOf: (profileId: string) => number | null;
  readonly hear: (event: CertificateExpiring) => void;
  /** Wall-clock epoch ms; default Date.now. */
  readonly now?: () => number;
  readonly everyMs?: number;
};

/**
 * The alert rule "tell a certificate N days before it expires": its own check of the saved
 * certificates, on the renewal watch's timer (at start and every 10 minutes), each certificate
 * told once per lead window. The renewal watch fires only when renewal is due, which can be later
 * than the person's lead time. Returns the stopper.
 */
export function watchLeadTimes(options: LeadTimeWatchOptions): () => void {
  const now = options.now ?? Date.now;
  return watchRenewals(
    {
      listSaved: options.saved,
      dueForRenewal: () => withinLeadTime(options.saved(), options.leadDaysOf, now()),
    },
    ({ certId, name, expiresAt }) => {
      const profileId = options.saved().find((s) => s.id === certId)?.profileId;
      const leadDays = profileId === undefined ? null : options.leadDaysOf(profileId);
      if (profileId === undefined || leadDays === null) return;
      options.hear({
        kind: 'certificate-expiring',
        certId,
        name,
        expiresAt,
        at: now(),
        profileId,
        leadDays,
      });
    },
    options.everyMs,
  );
}
