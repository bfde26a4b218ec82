import path from 'node:path';
import type { SshCertificateExpiring } from '../../../shared/app/ipc/ssh.ts';
import type { RenewalDue, SavedCertificate } from '../../../shared/app/ssh/results.ts';

/** How often saved certificates are checked: reminders are hours apart, so minutes are enough. */
export const RENEWAL_CHECK_MS = 10 * 60_000;

function expiringOf(due: RenewalDue, saved: SavedCertificate | undefined): SshCertificateExpiring {
  return {
    certId: due.savedId,
    name: saved?.description ?? path.basename(saved?.certificatePath ?? due.savedId),
    expiresAt: due.validUntil,
    dueAt: due.dueAt,
    expired: due.expired,
    key: due.key,
    message: due.message,
  };
}

/**
 * Checks the saved certificates at start and every `everyMs`, and tells each one due for renewal
 * (by its lead time, or two thirds of its lifetime) once per validity window and run: a renewal
 * moves the window, so no reminder follows it. The timer does not keep the process alive.
 * Returns the stopper.
 */
export function watchRenewals(
  ssh: {
    listSaved(): readonly SavedCertificate[];
    dueForRenewal(): readonly RenewalDue[];
  },
  onExpiring: (expiring: SshCertificateExpiring) => void,
  everyMs = RENEWAL_CHECK_MS,
): () => void {
  const told = new Set<string>();
  const check = () => {
    const saved = ssh.listSaved();
    for (const due of ssh.dueForRenewal()) {
      if (told.has(due.key)) continue;
      told.add(due.key);
      onExpiring(
        expiringOf(
          due,
          saved.find((s) => s.id === due.savedId),
        ),
      );
    }
  };
  // The first check waits a turn, so that whoever created the app has subscribed by then.
  const first = setTimeout(check, 0);
  const timer = setInterval(check, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
