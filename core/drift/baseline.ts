import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { MAX_SNAPSHOT_TEXT } from '../../shared/app/ipc/snapshot-limits.ts';
import { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import { readSmallFileOrWhy } from '../../shared/node/small-file.ts';
import { asideName, jsonOrUndefined, writeWhole } from '../files.ts';
import { signed, signedPart, signedWith } from './signature.ts';

/** The profile ids that name a baseline file: the app's own (letters, digits, _ and -). */
const PROFILE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A watched profile's baseline as kept on disk: its configuration, secrets as keyed hashes. */
export const Baseline = z.object({
  profileId: z.string(),
  /** When it was kept (RFC 3339), and how. */
  at: z.string(),
  from: z.enum(['watch', 'apply', 'accept']),
  document: SnapshotDocument,
  /** The drift last told, so that a restart does not tell it again. */
  toldDriftId: z.string().nullable(),
});
export type Baseline = z.output<typeof Baseline>;

export const newBaseline = (
  profileId: string,
  document: SnapshotDocument,
  from: Baseline['from'],
  now: number,
): Baseline => ({ profileId, at: new Date(now).toISOString(), from, document, toldDriftId: null });

/**
 * The most a baseline file can be: twice a snapshot's most (its hashes are longer than most
 * secrets), and never more than Put back can plan.
 */
const MAX_BASELINE_BYTES = 2 * MAX_SNAPSHOT_TEXT;

/** A baseline as read: Burrow's own, or why the file is not to be trusted. */
export type Kept = { readonly baseline: Baseline } | { readonly damaged: string };

/** Why a file without a signature is no baseline of this Burrow's. */
function unsignedReason(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `it is not valid JSON (${(error as Error).message})`;
  }
  return Baseline.safeParse(value).success
    ? 'it was kept by an older Burrow, which did not sign its baselines'
    : 'it is not a baseline Burrow wrote';
}

/**
 * One file a profile in the data folder's `drift/`, written whole, signed, and readable by its
 * owner only. A file Burrow did not write (see `read`) is never used: it is set aside.
 */
export class BaselineStore {
  private readonly folder: string;

  /** `key`: the drift key (core/drift/secrets.ts), which the files are signed with. */
  constructor(
    dataDir: string,
    private readonly key: () => Promise<Buffer>,
  ) {
    this.folder = path.join(dataDir, 'drift');
  }

  /** The profile's baseline file. */
  file(profileId: string): string {
    // Profile ids are the app's own (letters, digits, _ and -); anything else never names a file.
    if (!PROFILE_ID.test(profileId))
      throw new Error(`A baseline cannot be kept for the profile id ${JSON.stringify(profileId)}`);
    return path.join(this.folder, `${profileId}.json`);
  }

  /**
   * The profile's baseline; undefined when there is none. A file is Burrow's when it is a small
   * regular file (no link followed, no FIFO waited on), signed with this install's key, and a
   * baseline of that profile. A baseline of a Burrow from before the signatures is not trusted
   * either: nothing tells it from one edited since, so it is to be kept again.
   */
  async read(profileId: string): Promise<Kept | undefined> {
    const read = await readSmallFileOrWhy(this.file(profileId), MAX_BASELINE_BYTES);
    if ('absent' in read) return undefined;
    if ('refused' in read) return { damaged: read.refused };
    const part = signedPart(read.text);
    if (part === undefined) return { damaged: unsignedReason(read.text) };
    if (!signedWith(part, await this.key()))
      return {
        damaged:
          'it was changed outside Burrow (its signature does not match, or it was signed with ' +
          "another keychain's key)",
      };
    const parsed = Baseline.safeParse(jsonOrUndefined(part.json));
    if (!parsed.success) return { damaged: 'it is not a baseline this Burrow reads' };
    if (parsed.data.profileId !== profileId)
      return { damaged: `it is the baseline of another profile (${parsed.data.profileId})` };
    return { baseline: parsed.data };
  }

  /** Writes the baseline, signed; answers its file's stamp. */
  async write(baseline: Baseline): Promise<string | null> {
    const text = signed(JSON.stringify(baseline), await this.key());
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await writeWhole(this.file(baseline.profileId), text, 0o600);
    return this.stamp(baseline.profileId);
  }

  /**
   * The profile's file when it is not the one stamped `known` (another process, such as
   * `burrow drift --set`, kept one since): its baseline, or why it is not one; undefined when it
   * is the one known, or there is none.
   */
  async readChanged(
    profileId: string,
    known: string | null,
  ): Promise<(Kept & { stamp: string | null }) | undefined> {
    const stamp = await this.stamp(profileId);
    const kept = stamp === known || stamp === null ? undefined : await this.read(profileId);
    return kept && { ...kept, stamp };
  }

  /** What tells one write of the file from another without reading it: its time and size. */
  private async stamp(profileId: string): Promise<string | null> {
    // Not followed: a link put in its place is a change too.
    const file = await lstat(this.file(profileId)).catch(() => undefined);
    return file ? `${file.mtimeMs}:${file.size}` : null;
  }

  /** The file moved beside itself, dated; answers its new name. */
  async setAside(profileId: string, now: number): Promise<string> {
    const file = this.file(profileId);
    const aside = asideName(file, new Date(now));
    await rename(file, aside);
    return aside;
  }

  async remove(profileId: string): Promise<void> {
    await rm(this.file(profileId), { force: true });
  }

  /** The profile ids that have a baseline (not the files set aside, nor a write's temporary). */
  async profileIds(): Promise<string[]> {
    const names = await readdir(this.folder).catch(() => []);
    return names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length))
      .filter((id) => PROFILE_ID.test(id));
  }
}
