import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { exportSnapshot } from '../../../../core/snapshot/export/export.ts';
import { seededAccountForFile } from './seed.ts';

const account = seededAccountForFile('snapshot-overlap');

describe('export', () => {
  it('works on the kinds already read while the rest are still being read', async () => {
    let policiesRead = false;
    let releaseEdges = () => {};
    const edgesHeld = new Promise<void>((resolve) => (releaseEdges = resolve));
    let readBeforeEdges: boolean | undefined;
    const listAll = account.api.listAll as (name: string, options?: object) => Promise<unknown[]>;
    // The IP policies tell when the export looks at them; the HTTPS edges wait, as the governor may.
    const held = {
      ...account.api,
      listAll: async (name: string, options?: object) => {
        const items = await listAll(name, options);
        if (name === 'ipPolicies.list')
          return items.map(
            (item) =>
              new Proxy(item as object, {
                get: (target, key, receiver) => {
                  policiesRead = true;
                  return Reflect.get(target, key, receiver) as unknown;
                },
              }),
          );
        if (name !== 'httpsEdges.list') return items;
        setTimeout(() => {
          readBeforeEdges = policiesRead;
          releaseEdges();
        }, 50);
        await edgesHeld;
        return items;
      },
    } as ApiClient;
    const document = await exportSnapshot(held, { apiUrl: account.sandbox.url });
    expect(readBeforeEdges).toBe(true);
    expect(document.resources.ipPolicy).toHaveLength(3);
    expect(document.resources.httpsEdgeRoute).toHaveLength(3);
  });
});
