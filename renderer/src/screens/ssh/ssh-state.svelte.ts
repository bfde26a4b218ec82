import type { SSHCertificateAuthority } from '../../../../shared/api/kinds/ssh-certificate-authorities.ts';
import type { RenewalDue, SavedCertificate } from '../../../../shared/app/ssh/results.ts';
import type { AppState } from '../../stores/app-state.svelte.ts';

export type Badge = 'valid' | 'due' | 'expired';

/**
 * What the SSH screen's tabs share: the active profile's CAs, the certificates Burrow saved with
 * their reminders, and the default folder. Each tab calls the Bridge itself and refreshes this.
 */
export class SshState {
  cas = $state<SSHCertificateAuthority[]>([]);
  saved = $state<SavedCertificate[]>([]);
  due = $state<RenewalDue[]>([]);
  /** Whether `saved` has been read once: until then an empty list says nothing. */
  savedLoaded = $state(false);
  defaultFolder = $state('');

  constructor(readonly app: AppState) {}

  /** A reminder from core's periodic check turns a badge to "renew soon" while this is shown. */
  follow(): () => void {
    return this.app.bridge.on('ssh.certificateExpiring', () => void this.loadSaved());
  }

  async loadCas(): Promise<void> {
    const cas = await this.app.run(() =>
      this.app.bridge.invoke('api.sshCertificateAuthorities.listAll'),
    );
    if (cas) this.cas = cas;
  }

  async loadSaved(): Promise<void> {
    const bridge = this.app.bridge;
    const found = await this.app.run(() =>
      Promise.all([bridge.invoke('ssh.listSaved'), bridge.invoke('ssh.due')]),
    );
    if (!found) return;
    [this.saved, this.due] = found;
    this.savedLoaded = true;
  }

  async load(): Promise<void> {
    const folder = await this.app.run(() => this.app.bridge.invoke('ssh.defaultFolder'));
    if (folder) this.defaultFolder = folder;
    await Promise.all([this.loadCas(), this.loadSaved()]);
  }

  badgeOf(saved: SavedCertificate): Badge {
    const due = this.due.find((d) => d.savedId === saved.id);
    if (!due) return 'valid';
    return due.expired ? 'expired' : 'due';
  }
}
