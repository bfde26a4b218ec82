import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import {
  addressProfileId,
  profileOwner,
  type SnapshotAccount,
} from '../../../../core/snapshot/account.ts';
import { SnapshotService } from '../../../../core/snapshot/service.ts';
import { policiesSnapshot, startBurrow, twoAccounts, type Finished } from './accounts.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

/*
 * A journal belongs to one account, and one apply runs per account at a time: the service on a
 * sandbox holding two accounts at one address, and the real `burrow apply` beside it.
 */

const cleanup = cleanupAfterAll();

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'burrow-accounts-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Two profiles at one address, as the window names them. */
const profileAt = (client: ApiClient, url: string, id: string): SnapshotAccount => ({
  client,
  apiUrl: url,
  label: id === 'prf_a' ? 'Staging' : 'Other',
  owner: profileOwner(id),
});

describe('apply journals and locks, by account', () => {
  it('an apply stopped on one account is never carried on on another at the same address', async () => {
    const { sandbox, clients, policies } = await twoAccounts(cleanup);
    const [a, b] = clients.map((c, i) => profileAt(c, sandbox.url, i === 0 ? 'prf_a' : 'prf_b'));
    if (a === undefined || b === undefined) throw new Error('two accounts');
    const service = new SnapshotService({ dataDir: await dataDir(), holder: 'a test' });
    const document = policiesSnapshot(8);
    const source = 'policies.json';

    // Stopped after 3 of 8 creates, as a cancel or a failed call leaves it.
    const stop = new AbortController();
    const planned = await service.plan(document, a, { prune: false, source });
    await expect(
      service.apply(planned, a, {
        signal: stop.signal,
        onProgress: (p) => p.done === 3 && stop.abort(),
      }),
    ).rejects.toThrow();
    expect(await policies(0)).toHaveLength(3);

    const onB = await service.plan(document, b, { prune: false, source });
    expect(onB).toMatchObject({ resumed: false, done: 0 });
    expect(await service.stopped(b)).toEqual([]);
    const applied = await service.apply(onB, b, {});
    expect(applied).toMatchObject({ created: 8, resumed: false });
    expect(await policies(1)).toHaveLength(8);

    const stopped = await service.stopped(a);
    expect(stopped).toEqual([
      expect.objectContaining({ target: 'Staging', source, done: 3, total: 8 }),
    ]);
    const carried = await service.carryOn(a, stopped[0]?.journalId ?? '');
    expect(await service.apply(carried, a, {})).toMatchObject({ created: 8, resumed: true });
    expect((await policies(0)).sort()).toEqual(
      document.resources.ipPolicy.map((p) => p.name.slice(9)),
    );
    expect(await service.stopped(a)).toEqual([]);
  });

  it('a stopped apply is discarded, or removed once thirty days old; another account cannot', async () => {
    const { sandbox, clients } = await twoAccounts(cleanup);
    const [a, b] = clients.map((c, i) => profileAt(c, sandbox.url, i === 0 ? 'prf_a' : 'prf_b'));
    if (a === undefined || b === undefined) throw new Error('two accounts');
    const dir = await dataDir();
    const service = new SnapshotService({ dataDir: dir, holder: 'a test' });
    const stopAt = async (n: number, size: number) => {
      const stop = new AbortController();
      const planned = await service.plan(policiesSnapshot(size), a, { prune: false, source: 's' });
      await service
        .apply(planned, a, { signal: stop.signal, onProgress: (p) => p.done === n && stop.abort() })
        .catch(() => undefined);
    };
    await stopAt(1, 3);
    const [first] = await service.stopped(a);
    await expect(service.discard(b, first?.journalId ?? '')).rejects.toThrow(/is gone/);
    await service.discard(a, first?.journalId ?? '');
    expect(await service.stopped(a)).toEqual([]);

    await stopAt(1, 4);
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    const folder = join(dir, 'snapshots');
    for (const name of await readdir(folder)) await utimes(join(folder, name), old, old);
    expect(await service.stopped(b)).toEqual([]);
    expect(await readdir(folder)).toEqual([]);
  });

  it('two applies planned side by side: the second finds the account changed and makes nothing', async () => {
    const { sandbox, clients, policies } = await twoAccounts(cleanup);
    const a = profileAt(clients[0] as ApiClient, sandbox.url, 'prf_a');
    const service = new SnapshotService({ dataDir: await dataDir(), holder: 'a test' });
    const document = policiesSnapshot(10);
    const options = { prune: false, source: 'policies.json' };
    // Both planned before either took the lock: a CI retry beside the first run.
    const first = await service.plan(document, a, options);
    const second = await service.plan(document, a, options);
    expect(await service.apply(first, a, {})).toMatchObject({ created: 10 });
    await expect(service.apply(second, a, {})).rejects.toThrow(
      /Staging changed since this plan was made .*plan again/,
    );
    expect(await policies(0)).toHaveLength(10);
    expect(await service.stopped(a)).toEqual([]);
  });

  it('the window and a burrow apply at once: the second is refused, naming the first', async () => {
    const { sandbox, clients, keys, policies } = await twoAccounts(cleanup);
    const [client] = clients;
    if (client === undefined) throw new Error('an account');
    const dir = await dataDir();
    const file = join(dir, 'ten.json');
    await writeFile(file, JSON.stringify(policiesSnapshot(10)));
    // As `burrow --api-url` names the account (a profile of its own Burrow): the same owner, so the same lock.
    const account: SnapshotAccount = {
      client,
      apiUrl: sandbox.url,
      label: sandbox.url,
      owner: profileOwner(addressProfileId(sandbox.url, keys[0])),
    };
    const window = new SnapshotService({ dataDir: dir, holder: 'the Burrow window' });
    const planned = await window.plan(policiesSnapshot(10), account, { prune: false, source: 's' });
    let cli: Promise<Finished> | undefined;
    // The window's apply holds the account while the command runs from start to end.
    const applying = window.apply(planned, account, {
      confirm: async () => {
        const argv = ['apply', file, '--yes', '--api-url', sandbox.url, '--data-dir', dir];
        cli = startBurrow(argv, keys[0]).finished;
        await cli;
        return true;
      },
    });
    expect(await applying).toMatchObject({ created: 10 });
    const refused = await cli;
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(
      new RegExp(
        `^burrow: Another apply to ${sandbox.url.replace(/[.]/g, '\\.')} is running \\(the Burrow window, pid ${process.pid}, since \\d\\d:\\d\\d:\\d\\d\\)\\n$`,
      ),
    );
    expect(await policies(0)).toHaveLength(10);
  });
});
