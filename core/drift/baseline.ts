import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import { writeWhole } from '../files.ts';

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

/** One file a profile in the data folder's `drift/`, written whole and readable by its owner only. */
export class BaselineStore {
  private readonly folder: string;

  constructor(dataDir: string) {
    this.folder = path.join(dataDir, 'drift');
  }

  private file(profileId: string): string {
    // Profile ids are the app's own (letters, digits, _ and -); anything else never names a file.
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(profileId))
      throw new Error(`A baseline cannot be kept for the profile id ${JSON.stringify(profileId)}`);
    return path.join(this.folder, `${profileId}.json`);
  }

  async read(profileId: string): Promise<Baseline | undefined> {
    let text: string;
    try {
      text = await readFile(this.file(profileId), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const parsed = Baseline.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.profileId === profileId ? parsed.data : undefined;
  }

  /** Writes the baseline; answers its file's stamp. */
  async write(baseline: Baseline): Promise<string | null> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await writeWhole(this.file(baseline.profileId), `${JSON.stringify(baseline)}\n`, 0o600);
    return this.stamp(baseline.profileId);
  }

  /**
   * The profile's baseline when its file is not the one stamped `known` (another process, such
   * as `burrow drift --set`, kept one since); undefined when it is, or there is none.
   */
  async readChanged(
    profileId: string,
    known: string | null,
  ): Promise<{ baseline: Baseline; stamp: string | null } | undefined> {
    const stamp = await this.stamp(profileId);
    const baseline = stamp === known || stamp === null ? undefined : await this.read(profileId);
    return baseline && { baseline, stamp };
  }

  /** What tells one write of the file from another without reading it: its time and size. */
  private async stamp(profileId: string): Promise<string | null> {
    const file = await stat(this.file(profileId)).catch(() => undefined);
    return file ? `${file.mtimeMs}:${file.size}` : null;
  }

  async remove(profileId: string): Promise<void> {
    await rm(this.file(profileId), { force: true });
  }

  /** The profile ids that have a baseline. */
  async profileIds(): Promise<string[]> {
    const names = await readdir(this.folder).catch(() => []);
    return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length));
  }
}
