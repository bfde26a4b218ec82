/**
 * When a saved certificate wants renewing: once two thirds of its lifetime have passed, or a
 * lead time before it ends if the person set one shorter than the lifetime. A pure function of
 * the record and the time: a renewal moves the window, so no reminder follows it at once.
 */
import type { RenewalDue, SavedCertificate } from '../../../shared/app/ssh/results.ts';

function inWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

export function renewalDue(saved: SavedCertificate, nowMs: number): RenewalDue | undefined {
  const after = Date.parse(saved.validAfter);
  const until = Date.parse(saved.validUntil);
  const lifetime = until - after;
  const lead = saved.leadTimeSeconds === null ? undefined : saved.leadTimeSeconds * 1000;
  const byLead = lead !== undefined && lead < lifetime;
  const dueAt = byLead ? until - lead : after + Math.ceil((lifetime * 2) / 3);
  if (nowMs < dueAt) return undefined;
  const expired = nowMs >= until;
  const name = saved.certificatePath;
  return {
    savedId: saved.id,
    key: `${saved.id}@${saved.validUntil}`,
    reason: byLead ? 'lead-time' : 'two-thirds',
    dueAt: new Date(dueAt).toISOString(),
    validUntil: saved.validUntil,
    expired,
    message: expired
      ? `The certificate ${name} expired at ${saved.validUntil}; renew it to log in with it again.`
      : `The certificate ${name} expires in ${inWords(until - nowMs)}; renew it now.`,
  };
}

export function dueForRenewal(saved: readonly SavedCertificate[], nowMs: number): RenewalDue[] {
  return saved.flatMap((s) => renewalDue(s, nowMs) ?? []);
}
