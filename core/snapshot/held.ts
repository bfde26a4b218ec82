import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.ts';

/** The last few of something core holds for the window; an id older than those is gone. */
export class Held<T> {
  private readonly items = new Map<string, T>();
  constructor(
    private readonly what: string,
    private readonly keep = 8,
  ) {}
  add(value: T): string {
    const id = randomUUID().replaceAll('-', '');
    this.items.set(id, value);
    for (const old of this.items.keys()) if (this.items.size > this.keep) this.items.delete(old);
    return id;
  }
  get(id: string): T {
    const value = this.items.get(id);
    if (value === undefined)
      throw new AppError('SNAPSHOT_GONE', `This ${this.what} is no longer open: open it again`);
    return value;
  }
  delete(id: string): void {
    this.items.delete(id);
  }
}
