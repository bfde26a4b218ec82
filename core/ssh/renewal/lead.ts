import type { RenewalDue, SavedCertificate } from '../../../shared/app/ssh/results.ts';

const DAY = 86_400_000;

/**
 * The saved certificates within their profile's lead time (`leadDaysOf`, days or null for none)
 * of their end, as reminders: one key per certificate, validity window and lead, so that each is
 * told once in its lead window; a renewal, or another lead, is a new window. A certificate of no
 * profile has no rule. Pure.
 */
export function withinLeadTime(
  saved: readonly SavedCertificate[],
  leadDaysOf: (profileId: string) => number | null,
  nowMs: number,
): RenewalDue[] {
  return saved.flatMap((s) => {
    const days = s.profileId === undefined ? null : leadDaysOf(s.profileId);
    if (days === null) return [];
    const until = Date.parse(s.validUntil);
    const dueAt = until - days * DAY;
    if (nowMs < dueAt) return [];
    const expired = nowMs >= until;
    return [
      {
        savedId: s.id,
        key: `${s.id}@${s.validUntil}@${days}d`,
        reason: 'lead-time',
        dueAt: new Date(dueAt).toISOString(),
        validUntil: s.validUntil,
        expired,
        message: `The certificate ${s.certificatePath} ${expired ? 'has expired' : `expires within ${days} day${days === 1 ? '' : 's'}`}.`,
      },
    ];
  });
}
