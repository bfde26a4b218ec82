import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSchemeHandler } from '../../../electron/app-scheme.ts';

/** A stand-in for Electron's net.fetch: records the file URLs it is asked for. */
function standInNetFetch() {
  const fetched: string[] = [];
  const fetchFile = (url: string) => {
    fetched.push(url);
    return Promise.resolve(new Response('file'));
  };
  return { fetched, fetchFile };
}

const root = path.resolve('/opt/burrow/dist/renderer');

describe('the app scheme (with a stand-in for net.fetch)', () => {
  it('serves files under the renderer folder', async () => {
    const net = standInNetFetch();
    const response = await appSchemeHandler(
      root,
      net.fetchFile,
    )({ url: 'app://burrow/assets/index.js' });
    expect(response.status).toBe(200);
    expect(net.fetched).toEqual(['file:///opt/burrow/dist/renderer/assets/index.js']);
  });

  it('keeps dot segments inside the folder (the URL parser resolves them first)', async () => {
    const net = standInNetFetch();
    const handle = appSchemeHandler(root, net.fetchFile);
    await handle({ url: 'app://burrow/../../../etc/passwd' });
    await handle({ url: 'app://burrow/%2e%2e/%2e%2e/secrets.json' });
    expect(net.fetched).toEqual([
      'file:///opt/burrow/dist/renderer/etc/passwd',
      'file:///opt/burrow/dist/renderer/secrets.json',
    ]);
  });

  it.each(['app://burrow/assets/..%2f..%2f..%2fkeys', 'app://burrow/%E0%A4%A', 'app://burrow/'])(
    'answers 404 for %s without reading the disk',
    async (url) => {
      const net = standInNetFetch();
      const response = await appSchemeHandler(root, net.fetchFile)({ url });
      expect(response.status).toBe(404);
      expect(net.fetched).toEqual([]);
    },
  );
});
