import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Agent } from '../../shared/app/agents.ts';
import type { Clock, Timer } from '../../shared/node/clock.ts';
import { writeWhole } from '../files.ts';
import type { Entry } from './entry.ts';

export const AGENTS_FILE = 'agents.json';
/** A damaged file is kept here (one, the latest) for a person to look at; Burrow starts afresh. */
export const DAMAGED_FILE = 'agents.damaged.json';

const StoredAgents = z.object({
  version: z.literal(1),
  agents: z.array(z.object({ agent: Agent, blockedFor: z.string().nullable() })),
});

/**
 * The agents in the data folder, so that offline ones and their day outlive a restart of
 * Burrow. Writes are gathered (`delayMs` after the first change) and each is whole or not at all.
 */
export class AgentsFile {
  private readonly file: string;
  private timer: Timer | undefined;
  private writing: Promise<void> = Promise.resolve();
  private pending: (() => readonly Entry[]) | undefined;

  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    private readonly delayMs: number,
    private readonly log: (message: string) => void,
  ) {
    this.file = path.join(dir, AGENTS_FILE);
  }

  /** What the file holds; a damaged file is set aside (and said in the log), never a failure. */
  async read(): Promise<Entry[]> {
    await mkdir(this.dir, { recursive: true });
    await this.sweep();
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      // Unreadable (a folder in its place, no permission): left as it is, for a person to see.
      this.log(`Burrow: ${this.file} could not be read (${String(error)}); agents start afresh`);
      return [];
    }
    let reason: string;
    try {
      const parsed = StoredAgents.safeParse(JSON.parse(text));
      if (parsed.success)
        return parsed.data.agents.map((a) => ({
          ...a,
          absentPolls: 0,
          absentSince: null,
          settled: true,
        }));
      reason = parsed.error.issues[0]?.message ?? 'not the expected shape';
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    const aside = await rename(this.file, path.join(this.dir, DAMAGED_FILE)).then(
      () => `set aside as ${DAMAGED_FILE}`,
      (error: unknown) => `not set aside (${String(error)})`,
    );
    this.log(`Burrow: ${this.file} could not be read (${reason}); ${aside}, agents start afresh`);
    return [];
  }

  /** Writes what `entries()` gives, `delayMs` after the first change since the last write. */
  schedule(entries: () => readonly Entry[]): void {
    this.pending = entries;
    this.timer ??= this.clock.setTimer(() => {
      this.timer = undefined;
      this.write();
    }, this.delayMs);
  }

  /** The last change written now; resolves once every write has ended. */
  async flush(entries?: () => readonly Entry[]): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    if (entries) this.pending = entries;
    this.write();
    await this.writing;
  }

  private write(): void {
    const entries = this.pending;
    this.pending = undefined;
    if (!entries) return;
    const text = JSON.stringify({
      version: 1,
      agents: entries().map(({ agent, blockedFor }) => ({ agent, blockedFor })),
    });
    this.writing = this.writing
      .then(() => writeWhole(this.file, text, 0o600))
      .catch((error: unknown) =>
        this.log(`Burrow: could not write ${this.file}: ${String(error)}`),
      );
  }

  /** Temporary files a kill left behind mid-write. */
  private async sweep(): Promise<void> {
    const names = await readdir(this.dir).catch(() => []);
    const left = names.filter((n) => /^agents\.json\.[0-9a-f]{12}\.tmp$/.test(n));
    await Promise.all(left.map((n) => rm(path.join(this.dir, n), { force: true })));
  }
}
