/*
 * What the palette opened or ran lately, most recent first, by each item's key: kept in the
 * window's storage so that it survives a reload, a few only.
 */

const STORAGE_KEY = 'burrow.palette.recent';
export const RECENT_LIMIT = 8;

/** The part of `localStorage` used: a plain object stands in for it in unit tests. */
type KeyStore = {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
};

export class RecentItems {
  constructor(private readonly storage: KeyStore | undefined) {}

  keys(): string[] {
    try {
      const kept: unknown = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? '[]');
      return Array.isArray(kept) ? kept.filter((k) => typeof k === 'string') : [];
    } catch {
      // Written by hand or by an older window: it starts over rather than failing the palette.
      return [];
    }
  }

  remember(key: string): void {
    const keys = [key, ...this.keys().filter((k) => k !== key)].slice(0, RECENT_LIMIT);
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(keys));
    } catch {
      // Storage full or refused: the palette works without its recent items.
    }
  }
}
