import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { startWebApp } from './support-cli.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

it('starts on a damaged settings.json, says once where the old file went, and serves', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-web-damaged-'));
  await writeFile(path.join(dataDir, 'settings.json'), '{"profiles": [');
  // The spawned app inherits it: its data folder is this one.
  vi.stubEnv('BURROW_DATA_DIR', dataDir);
  const app = await startWebApp();
  try {
    const aside = (await readdir(dataDir)).find((name) => name.startsWith('settings.damaged-'));
    expect(aside).toBeDefined();
    const said = app
      .output()
      .split('\n')
      .filter((line) => line.includes('could not read'));
    expect(said).toEqual([expect.stringContaining(path.join(dataDir, aside ?? ''))]);
    expect(app.output()).not.toMatch(/\n\s+at /);
    const page = await fetch(new URL('/', app.url));
    expect(page.status).toBe(200);
  } finally {
    await app.stop();
  }
});
