import { BaselineStore, type Baseline } from './baseline.ts';
import type { DriftWatch } from './watch.ts';
import { baselineSetAside, notChecked } from './words.ts';

export type KeptBaselinesParts = {
  readonly dataDir: string;
  /** The drift key (secrets.ts), which the files are signed with. */
  readonly key: () => Promise<Buffer>;
  readonly nameOf: (profileId: string) => string;
  readonly now: () => number;
  /** A profile whose file is set aside: its watch stopped, before the file is moved. */
  readonly unwatch: (profileId: string) => void;
  /** A profile no longer watched, and why, in words naming it. */
  readonly stopped?: ((profileId: string, message: string) => void) | undefined;
  readonly changed: () => void;
};

/**
 * The baseline files as drift trusts them: one another process wrote since it was read here is
 * read again, and one Burrow did not write is set aside beside itself, its profile watched no
 * more, and why said once, until a new baseline is kept.
 */
export class KeptBaselines {
  private readonly store: BaselineStore;
  /** Why each profile set aside is watched no more, until it is watched again. */
  private readonly stoppedWhy = new Map<string, string>();

  constructor(private readonly parts: KeptBaselinesParts) {
    this.store = new BaselineStore(parts.dataDir, parts.key);
  }

  /** Why the profile is watched no more, when its file was set aside. */
  why(profileId: string): string | undefined {
    return this.stoppedWhy.get(profileId);
  }

  profileIds(): Promise<string[]> {
    return this.store.profileIds();
  }

  /**
   * The profile's file when it is not the one stamped `known` (null: none read yet): its baseline
   * and stamp; undefined when it is the one known, there is none, or it was set aside.
   */
  async changed(
    profileId: string,
    known: string | null,
  ): Promise<{ baseline: Baseline; stamp: string | null } | { setAside: string } | undefined> {
    const kept = await this.store.readChanged(profileId, known);
    if (kept === undefined) return undefined;
    if ('damaged' in kept) return { setAside: await this.setAside(profileId, kept.damaged) };
    return { baseline: kept.baseline, stamp: kept.stamp };
  }

  /**
   * The watch's file as it is now, when another process kept one since (`burrow drift --set`);
   * answers, when it was not Burrow's, what was said as it was set aside.
   */
  async reread(watch: DriftWatch): Promise<string | undefined> {
    const kept = await this.changed(watch.baseline.profileId, watch.stamp);
    if (kept === undefined) return undefined;
    if ('setAside' in kept) return kept.setAside;
    [watch.baseline, watch.stamp] = [kept.baseline, kept.stamp];
    return undefined;
  }

  /** Writes the baseline, signed, its profile watched again; answers its file's stamp. */
  write(baseline: Baseline): Promise<string | null> {
    this.stoppedWhy.delete(baseline.profileId);
    return this.store.write(baseline);
  }

  remove(profileId: string): Promise<void> {
    return this.store.remove(profileId);
  }

  /** A file left as it is for this run: the keychain or the disk refused to check it. */
  notChecked(profileId: string, error: unknown): void {
    const { nameOf, stopped } = this.parts;
    stopped?.(profileId, notChecked(nameOf(profileId), this.store.file(profileId), error));
  }

  /** A baseline Burrow did not write: set aside beside itself, its profile unwatched, said once. */
  private async setAside(profileId: string, reason: string): Promise<string> {
    this.parts.unwatch(profileId);
    const aside = await this.store.setAside(profileId, this.parts.now()).then(
      (file) => ({ file }),
      (error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }),
    );
    const file = this.store.file(profileId);
    const message = baselineSetAside(this.parts.nameOf(profileId), file, reason, aside);
    this.stoppedWhy.set(profileId, message);
    this.parts.stopped?.(profileId, message);
    this.parts.changed();
    return message;
  }
}
