import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchIpc } from '../../../../core/ipc/dispatch.ts';
import type { SecretStore } from '../../../../core/profiles/keychain.ts';
import type { ProfilesState } from '../../../../shared/app/ipc/profiles.ts';
import { startEmbeddedSandbox } from '../../../../sandbox/embedded.ts';
import { startSandbox, type Sandbox } from '../../../../sandbox/index.ts';
import { noSecretService } from '../../../support/secret-service.ts';
import { filesUnder, startApp, type TestApp } from './support.ts';

/*
 * Profiles end to end in core: the real keychain, conf on a fresh data folder, the embedded
 * Local sandbox and a second real sandbox standing for a remote account.
 */

let remote: Sandbox;
const REMOTE_KEY = 'remote-account-key-0123456789';

beforeAll(async () => {
  remote = await startSandbox({ apiKey: REMOTE_KEY, rateLimit: 'off' });
});
afterAll(() => remote?.close());

const call = (app: TestApp, name: string, ...args: unknown[]) =>
  dispatchIpc(app.burrow.implementation, name, args);

async function value<T>(
  reply: Promise<{ ok: boolean; value?: unknown; error?: unknown }>,
): Promise<T> {
  const settled = await reply;
  if (!settled.ok) throw new Error(`call failed: ${JSON.stringify(settled.error)}`);
  return settled.value as T;
}

function localRunning(app: TestApp) {
  return expect
    .poll(() => app.burrow.profiles.state().local.state, { timeout: 20_000 })
    .toBe('running');
}

describe('first launch', () => {
  it('creates the Local sandbox, active, its key in the keychain only, with demo sessions', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const app = await startApp();
    const state = app.burrow.profiles.state();
    expect(state.profiles).toEqual([
      expect.objectContaining({ name: 'Local sandbox', kind: 'local' }),
    ]);
    expect(state.activeId).toBe(state.profiles[0]?.id);
    // The first window asks at once; the answer waits for the sandbox, not the window.
    const sessions = await value<unknown[]>(call(app, 'api.tunnelSessions.listAll'));
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    await localRunning(app);
    const id = state.profiles[0]?.id ?? '';
    expect(await app.secrets.get(id)).toMatch(/^[\w-]{40,}$/);
  });

  it('keeps the Local sandbox and its data across a restart', async () => {
    const first = await startApp();
    const created = await value<{ id: string }>(
      call(first, 'api.ipPolicies.create', { body: { description: 'survives restarts' } }),
    );
    await first.burrow.close();
    const second = await startApp({ dataDir: first.dataDir, secrets: first.secrets });
    expect(second.burrow.profiles.state().profiles).toHaveLength(1);
    const got = await value<{ description: string }>(
      call(second, 'api.ipPolicies.get', { params: { id: created.id } }),
    );
    expect(got.description).toBe('survives restarts');
  });
});

describe('profiles', () => {
  it('tries the key first: a wrong one shows the API error and saves nothing', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const app = await startApp();
    const before = app.burrow.profiles.state().profiles.length;
    const reply = await call(app, 'profiles.add', {
      name: 'Remote',
      baseUrl: remote.url,
      apiKey: 'not-the-key',
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'ERR_SERVICE_203', status: 401 } });
    expect(reply).toMatchObject({ error: { operationId: expect.stringMatching(/^op_/) } });
    expect(app.burrow.profiles.state().profiles).toHaveLength(before);
  });

  it('adds, switches to, renames, re-keys and removes a profile, the key in the keychain only', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const app = await startApp();
    const added = await value<{ id: string; name: string }>(
      call(app, 'profiles.add', {
        name: ' Remote ',
        baseUrl: `${remote.url}/`,
        apiKey: ` ${REMOTE_KEY}\n`,
      }),
    );
    expect(added).toMatchObject({ name: 'Remote', baseUrl: remote.url, kind: 'remote' });
    expect(await app.secrets.get(added.id)).toBe(REMOTE_KEY);

    const switched = await value<ProfilesState>(call(app, 'profiles.switch', added.id));
    expect(switched.activeId).toBe(added.id);
    const policy = await value<{ id: string }>(
      call(app, 'api.ipPolicies.create', { body: { description: 'on the remote' } }),
    );
    const onRemote = await fetch(`${remote.url}/ip_policies/${policy.id}`, {
      headers: { Authorization: `Bearer ${REMOTE_KEY}`, 'Service-Version': '2' },
    });
    expect(onRemote.status).toBe(200);

    expect(await value(call(app, 'profiles.rename', added.id, 'Production'))).toMatchObject({
      name: 'Production',
    });

    const wrongKey = await call(app, 'profiles.changeKey', added.id, 'still-wrong');
    expect(wrongKey).toMatchObject({ ok: false, error: { code: 'ERR_SERVICE_203' } });
    expect(await app.secrets.get(added.id)).toBe(REMOTE_KEY);

    const removed = await value<ProfilesState>(call(app, 'profiles.remove', added.id));
    expect(removed.profiles.map((p) => p.id)).not.toContain(added.id);
    expect(removed.activeId).toBe(removed.profiles[0]?.id);
    expect(await app.secrets.get(added.id)).toBeNull();
  });

  it('moves a profile to another address only once its key works there', async (ctx) => {
    ctx.skip(noSecretService !== undefined, noSecretService);
    const moved = await startSandbox({ apiKey: 'moved-account-key-0123456789', rateLimit: 'off' });
    try {
      const app = await startApp();
      const added = await value<{ id: string }>(
        call(app, 'profiles.add', { name: 'Remote', baseUrl: remote.url, apiKey: REMOTE_KEY }),
      );
      const address = () => app.burrow.profiles.state().profiles.find((p) => p.id === added.id);
      // The kept key is refused at the new address: nothing changes.
      expect(
        await call(app, 'profiles.changeAddress', added.id, { baseUrl: moved.url }),
      ).toMatchObject({
        ok: false,
        error: { code: 'ERR_SERVICE_203' },
      });
      expect(address()?.baseUrl).toBe(remote.url);
      expect(
        await call(app, 'profiles.changeAddress', added.id, { baseUrl: 'http://api.example.com' }),
      ).toMatchObject({ ok: false, error: { code: 'IPC_BAD_ARGUMENTS', field: 'baseUrl' } });
      // With the new address's own key: moved, the key kept in the keychain.
      await value(
        call(app, 'profiles.changeAddress', added.id, {
          baseUrl: `${moved.url}/`,
          apiKey: 'moved-account-key-0123456789',
        }),
      );
      expect(address()?.baseUrl).toBe(moved.url);
      expect(await app.secrets.get(added.id)).toBe('moved-account-key-0123456789');
      await value(call(app, 'profiles.switch', added.id));
      const policy = await value<{ id: string }>(
        call(app, 'api.ipPolicies.create', { body: { description: 'at the new address' } }),
      );
      expect(policy.id).toMatch(/^ipp_/);
      const there = await fetch(`${moved.url}/ip_policies/${policy.id}`, {
        headers: { Authorization: 'Bearer moved-account-key-0123456789', 'Service-Version': '2' },
      });
      expect(there.status).toBe(200);
    } finally {
      await moved.close();
    }
  });

  it.each([
    ['plain http to another host', 'http://api.example.com', 'baseUrl'],
    ['a .localhost name over http', 'http://api.localhost:4040', 'baseUrl'],
    ['an address with a user', 'https://me@api.example.com', 'baseUrl'],
    ['no address at all', 'api.example.com', 'baseUrl'],
  ])('refuses %s before any request', async (_, baseUrl, field) => {
    const app = await startApp();
    const reply = await call(app, 'profiles.add', { name: 'X', baseUrl, apiKey: 'k' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_BAD_ARGUMENTS', field } });
  });

  it.each([
    ['a key with a space inside', 'two words', 'apiKey'],
    ['an empty name', '', 'name'],
  ])('refuses %s, naming the field', async (_, input, field) => {
    const app = await startApp();
    const draft =
      field === 'apiKey'
        ? { name: 'X', baseUrl: remote.url, apiKey: input }
        : { name: input, baseUrl: remote.url, apiKey: 'k' };
    expect(await call(app, 'profiles.add', draft)).toMatchObject({
      ok: false,
      error: { code: 'IPC_BAD_ARGUMENTS', field },
    });
  });

  it('refuses an unknown profile id with a clear code', async () => {
    const app = await startApp();
    expect(await call(app, 'profiles.switch', 'prf_doesnotexist')).toMatchObject({
      ok: false,
      error: { code: 'PROFILE_NOT_FOUND' },
    });
  });
});

describe('the API through the contract', () => {
  it("keeps the Local profile to its sandbox's limit, not the service's", async () => {
    const app = await startApp({
      startLocalSandbox: async (options) => {
        const sandbox = await startEmbeddedSandbox({
          ...options,
          rateLimit: { requests: 600, windowSeconds: 60 },
        });
        const rateLimit = { requests: 600, windowMs: 60_000 };
        return { url: sandbox.url, rateLimit, close: () => sandbox.close() };
      },
    });
    await value(call(app, 'api.ipPolicies.list'));
    expect(await value(call(app, 'governor.state'))).toMatchObject({ capacity: 600 });
  });

  it("refuses a body the API would refuse before the call, with the API's code and field", async () => {
    const app = await startApp();
    await value(call(app, 'api.ipPolicies.list'));
    const before = (await value<{ used: number }>(call(app, 'governor.state'))).used;
    // 128 two-byte characters: 256 bytes of UTF-8, one over the limit, though 128 characters.
    const reply = await call(app, 'api.ipPolicies.create', {
      body: { description: 'é'.repeat(128) },
    });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'ERR_SERVICE_420', field: 'description' },
    });
    expect((await value<{ used: number }>(call(app, 'governor.state'))).used).toBe(before);
  });

  it("shows a rule only the service can check with the service's own code", async () => {
    const app = await startApp();
    const backend = await value<{ id: string }>(
      call(app, 'api.httpResponseBackends.create', { body: { body: 'hi', status_code: 200 } }),
    );
    await value(
      call(app, 'api.tlsEdges.create', {
        body: { hostports: ['in-use.example.com:443'], backend: { backend_id: backend.id } },
      }),
    );
    const reply = await call(app, 'api.httpResponseBackends.delete', {
      params: { id: backend.id },
    });
    expect(reply).toMatchObject({
      ok: false,
      error: {
        code: expect.stringMatching(/^ERR_SERVICE_/),
        status: 409,
        operationId: expect.stringMatching(/^op_/),
      },
    });
  });

  it('lists every page with progress events, and cancels a list on request', async () => {
    const app = await startApp();
    for (let i = 0; i < 3; i++) await value(call(app, 'api.ipPolicies.create', { body: {} }));
    const all = await value<unknown[]>(
      call(app, 'api.ipPolicies.listAll', { query: { limit: 1 }, requestId: 'sync-1' }),
    );
    expect(all.length).toBeGreaterThanOrEqual(3);
    const progress = app.events.filter((e) => e.name === 'api.progress');
    expect(progress.at(-1)?.payload).toMatchObject({ requestId: 'sync-1', loaded: all.length });
    expect(await value(call(app, 'api.cancel', 'sync-1'))).toBe(false);
  });
});

describe('no keychain', () => {
  // Stands in for a Linux desktop with no Secret Service: writes fail as @napi-rs/keyring's do,
  // and reads answer "no entry" as it does there.
  const noSecretService: SecretStore = {
    get: async () => null,
    set: async () => {
      throw new Error("Couldn't access platform storage: AccessDenied GenericFailure");
    },
    delete: async () => false,
  };

  it('says so, refuses to store a key, and still runs the Local sandbox on a key kept in memory', async () => {
    const app = await startApp({ secrets: noSecretService as never });
    const state = app.burrow.profiles.state();
    expect(state.keychain).toMatchObject({
      available: false,
      message: expect.stringMatching(/keychain/),
    });
    const reply = await call(app, 'profiles.add', {
      name: 'R',
      baseUrl: remote.url,
      apiKey: REMOTE_KEY,
    });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'PROFILE_NO_KEYCHAIN', field: 'apiKey' },
    });
    expect(app.burrow.profiles.state().profiles).toHaveLength(1);
    const sessions = await value<unknown[]>(call(app, 'api.tunnelSessions.listAll'));
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    for (const { file, text } of await filesUnder(app.dataDir))
      expect(text, file).not.toContain(REMOTE_KEY);
  });
});

describe.skipIf(noSecretService)('the API keys stay in the keychain', () => {
  // HOME as a whole is searched by the end-to-end test, whose app runs on a throwaway HOME.
  it('appear in no IPC result, no event, and no file of the data folder', async () => {
    const app = await startApp();
    const replies: unknown[] = [];
    const record = async (name: string, ...args: unknown[]) => {
      const reply = await call(app, name, ...args);
      replies.push(reply);
      return reply;
    };
    await record('api.tunnelSessions.listAll', { requestId: 'all' });
    const added = (await record('profiles.add', {
      name: 'Remote',
      baseUrl: remote.url,
      apiKey: REMOTE_KEY,
    })) as { value: { id: string } };
    await record('profiles.changeKey', added.value.id, REMOTE_KEY);
    await record('profiles.add', { name: 'Wrong', baseUrl: remote.url, apiKey: 'wrong-key-xyz' });
    await record('profiles.switch', added.value.id);
    await record('api.ipPolicies.create', { body: { description: 'x' } });
    for (const name of ['profiles.state', 'settings.get', 'governor.state', 'app.info'])
      await record(name);

    const local = app.burrow.profiles.state().profiles.find((p) => p.kind === 'local');
    const localKey = await app.secrets.get(local?.id ?? '');
    expect(localKey).toBeTruthy();
    const secrets = [REMOTE_KEY, localKey ?? ''];
    const wire = JSON.stringify([replies, app.events]);
    for (const secret of secrets) expect(wire).not.toContain(secret);

    const files = await filesUnder(app.dataDir);
    expect(files.some(({ file }) => file.endsWith('settings.json'))).toBe(true);
    for (const { file, text } of files)
      for (const secret of secrets) expect(text.includes(secret), file).toBe(false);
  });
});
