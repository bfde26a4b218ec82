/**
 * The part of `conf` (and of electron-store, which extends it) that core uses. Electron hands core
 * an electron-store; browser mode and the tests hand it a `conf` on a folder of their choosing.
 */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** A `conf` store in `dir` (settings.json), for browser mode and tests. */
export async function openConfStore(dir: string): Promise<KeyValueStore> {
  const { default: Conf } = await import('conf');
  const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: 'settings' });
  return {
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    delete: (key) => conf.delete(key),
  };
}
