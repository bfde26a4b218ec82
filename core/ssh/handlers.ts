import path from 'node:path';
import type { sshCalls, SshCertificateExpiring } from '../../shared/ipc/ssh.ts';
import type { RenewalDue, SavedCertificate } from '../../shared/ssh/results.ts';
import type { EventHub } from '../ipc/events.ts';
import type { AppHandlers } from '../ipc/dispatch.ts';
import type { SshService } from './service.ts';

/** The SSH calls of the contract, carried to the SSH service; generation steps become events. */
export function sshHandlers(
  ssh: SshService,
  events: EventHub,
): Pick<AppHandlers, keyof typeof sshCalls> {
  return {
    'ssh.defaultFolder': () => ssh.defaultFolder(),
    'ssh.existingFiles': (query) => ssh.existingFiles(query),
    'ssh.generate': (request, requestId) =>
      ssh.generateKeyAndCertificate(request, ({ step, message }) => {
        if (requestId !== undefined) events.emit('ssh.progress', { requestId, step, message });
      }),
    'ssh.signExisting': (request) => ssh.signExistingKey(request),
    'ssh.decode': (request) => ssh.decodeCertificate(request),
    'ssh.listSaved': () => ssh.listSaved(),
    'ssh.due': () => ssh.dueForRenewal(),
    'ssh.forget': (id) => {
      ssh.forget(id);
      return ssh.listSaved();
    },
    'ssh.setLeadTime': (id, seconds) => ssh.setLeadTime(id, seconds),
    'ssh.renew': (id) => ssh.renew(id),
    'ssh.command': (request) => ssh.sshCommand(request),
    'ssh.addToAgent': (request) => ssh.addToAgent(request),
    'ssh.writeConfigBlock': (request) => ssh.writeConfigBlock(request),
    'ssh.trustLines': (request) => ssh.trustLines(request),
  };
}

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
 * Checks the saved certificates at start and every `everyMs`, and emits `ssh.certificateExpiring`
 * once per validity window and run (the policy decides what to show). The timer does not keep
 * the process alive. Returns the stopper.
 */
export function watchRenewals(
  ssh: SshService,
  events: EventHub,
  everyMs = RENEWAL_CHECK_MS,
): () => void {
  const told = new Set<string>();
  const check = () => {
    const saved = ssh.listSaved();
    for (const due of ssh.dueForRenewal()) {
      if (told.has(due.key)) continue;
      told.add(due.key);
      events.emit(
        'ssh.certificateExpiring',
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
