import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { ActivityFilter, ActivityList, NewActivityEntry } from '../../shared/app/activity.ts';
import { AppError } from '../errors.ts';
import { entriesOf, kept, lineOf } from './lines.ts';

/** The record's folder in the data folder: one `<profile id>.jsonl` a profile. */
const ACTIVITY_DIR = 'activity';
const SEEN_FILE = 'seen';
const LOCK_FILE = 'trim.lock';
/** A lock older than this was left by a process that died mid-trim. */
const STALE_LOCK_MS = 30_000;
const FILE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The activity record in the data folder, for the app and `burrow` alike: appends are single
 * O_APPEND writes, so processes need no lock to add; only trimming (the app's, at start and now
 * and then) takes one, and carries over whatever was appended while it rewrote the file; an
 * appender that wrote to the file a trim replaced writes its line again in the new one.
 */
export class ActivityRecord {
  readonly dir: string;
  private readonly now: () => number;

  constructor(dataDir: string, now: () => number = Date.now) {
    this.dir = path.join(dataDir, ACTIVITY_DIR);
    this.now = now;
  }

  append(entry: NewActivityEntry): void {
    const line = lineOf(entry);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(entry.profileId);
    const fd = openSync(file, 'a', 0o600);
    try {
      writeSync(fd, line);
      // A trim renamed a new file in after this one was opened and may not have carried the line
      // over: it goes in the new one too (a line twice is read once, by its id).
      if (fstatSync(fd).ino !== statSync(file).ino) writeFileSync(file, line, { flag: 'a' });
    } finally {
      closeSync(fd);
    }
  }

  /** Newest first, within what is kept, by profile and kind when asked. */
  list(filter: ActivityFilter = {}): ActivityList {
    const now = this.now();
    const all = this.profileFiles().flatMap((file) => kept(entriesOf(this.read(file)), now));
    all.sort((a, b) => b.at - a.at);
    const seenAt = this.seenAt();
    const entries = all.filter(
      (e) =>
        (filter.profileId === undefined || e.profileId === filter.profileId) &&
        (filter.kind === undefined || e.kind === filter.kind),
    );
    return { entries, unseen: all.filter((e) => e.at > seenAt).length };
  }

  /** The Activity screen was seen: what is there now is not new. */
  seen(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(this.dir, SEEN_FILE), String(this.now()), { mode: 0o600 });
  }

  /** Each profile's file down to what it keeps; false when another process holds the lock. */
  trim(): boolean {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const lock = path.join(this.dir, LOCK_FILE);
    if (!takeLock(lock, this.now())) return false;
    try {
      for (const file of this.profileFiles()) this.trimFile(file);
      return true;
    } finally {
      rmSync(lock, { force: true });
    }
  }

  private trimFile(file: string): void {
    const fd = openSync(file, 'r');
    try {
      const text = readAll(fd, 0);
      const before = entriesOf(text);
      const after = kept(before, this.now());
      if (after.length === before.length) return;
      const temporary = `${file}.trim`;
      writeFileSync(temporary, after.map((e) => `${JSON.stringify(e)}\n`).join(''), {
        mode: 0o600,
      });
      renameSync(temporary, file);
      // Lines appended to the old file while it was rewritten go on in the new one.
      const late = readAll(fd, Buffer.byteLength(text));
      if (late !== '') writeFileSync(file, late, { flag: 'a' });
    } finally {
      closeSync(fd);
    }
  }

  private fileOf(profileId: string): string {
    if (!FILE_NAME.test(profileId))
      throw new AppError(
        'ACTIVITY_PROFILE',
        `profileId: ${JSON.stringify(profileId)} is no profile id`,
      );
    return path.join(this.dir, `${profileId}.jsonl`);
  }

  private profileFiles(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.filter((n) => n.endsWith('.jsonl')).map((n) => path.join(this.dir, n));
  }

  private read(file: string): string {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  }

  private seenAt(): number {
    const at = Number(this.read(path.join(this.dir, SEEN_FILE)));
    return Number.isFinite(at) ? at : 0;
  }
}

function readAll(fd: number, from: number): string {
  const size = fstatSync(fd).size - from;
  if (size <= 0) return '';
  const buffer = Buffer.alloc(size);
  const read = readSync(fd, buffer, 0, size, from);
  return buffer.subarray(0, read).toString('utf8');
}

/** O_EXCL: one trimmer at a time; a lock past its age is taken over. */
function takeLock(lock: string, now: number): boolean {
  try {
    closeSync(openSync(lock, 'wx', 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    if (now - statSync(lock).mtimeMs < STALE_LOCK_MS) return false;
  } catch {
    // Gone meanwhile: its holder finished.
  }
  rmSync(lock, { force: true });
  try {
    closeSync(openSync(lock, 'wx', 0o600));
    return true;
  } catch {
    return false;
  }
}
