import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../../core/api/errors.ts';
import { AppError } from '../../../../core/errors.ts';
import { dispatchIpc, ipcErrorOf, type IpcImplementation } from '../../../../core/ipc/dispatch.ts';
import type { AppHandlers } from '../../../../core/ipc/handlers.ts';
import { SshError } from '../../../../core/ssh/service.ts';

/** Handlers written for the test: the dispatcher's job is to route and refuse, not to act. */
function implementation(overrides: Partial<AppHandlers> = {}): IpcImplementation & {
  seen: unknown[];
} {
  const seen: unknown[] = [];
  const unused = () => {
    throw new Error('not called in this test');
  };
  return {
    seen,
    calls: new Proxy(
      {
        'app.info': () => ({ name: 'Burrow', version: '9.9.9', shell: 'browser' as const }),
        ...overrides,
      } as AppHandlers,
      { get: (target, name: string) => target[name as keyof AppHandlers] ?? unused },
    ),
    call: async (entry, request) => {
      seen.push([entry.endpoint.name, request]);
      return { ok: entry.endpoint.name };
    },
    listAll: async (entry, options) => {
      seen.push([`${entry.endpoint.name}:all`, options]);
      return [];
    },
  };
}

function throwing(): never {
  throw new Error('thrown by the sender');
}

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe('dispatchIpc', () => {
  it('answers a known call with valid arguments', async () => {
    expect(await dispatchIpc(implementation(), 'app.info', [])).toEqual({
      ok: true,
      value: { name: 'Burrow', version: '9.9.9', shell: 'browser' },
    });
  });

  it.each([undefined, null, 42, 'no.such.call', 'toString', '__proto__', 'constructor', 'api.'])(
    'refuses the unknown call %j before any handler runs',
    async (name) => {
      const reply = await dispatchIpc(implementation(), name, []);
      expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_UNKNOWN_CALL' } });
    },
  );

  it.each([
    ['an array nested 100,000 deep', nested(100_000)],
    ['an object whose toJSON throws', { toJSON: throwing }],
    ['an object whose toString throws', { toString: throwing, valueOf: throwing }],
    ['a BigInt', 10n],
    ['a symbol', Symbol('app.info')],
    ['a revoked proxy', revoked()],
  ])('answers a name that is %s with the error shape', async (_, name) => {
    const reply = await dispatchIpc(implementation(), name, []);
    expect(reply).toEqual({
      ok: false,
      error: { code: 'IPC_UNKNOWN_CALL', message: expect.stringMatching(/^unknown call \(/) },
    });
  });

  it('quotes a long unknown name cut short', async () => {
    const reply = await dispatchIpc(implementation(), 'x'.repeat(1 << 20), []);
    expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_UNKNOWN_CALL' } });
    expect(JSON.stringify(reply).length).toBeLessThan(200);
  });

  it.each([
    ['a proxy whose traps throw', [revoked()]],
    [
      'a getter that throws',
      [
        {
          get name(): string {
            throw new Error('getter');
          },
        },
      ],
    ],
    ['an argument list that is a throwing proxy', new Proxy([], { get: throwing })],
    [
      'an argument whose prototype cannot be read, where the issue names its type',
      [new Proxy({}, { getPrototypeOf: throwing })],
    ],
  ])('refuses arguments with %s before any handler runs', async (_, args) => {
    const reply = await dispatchIpc(implementation(), 'profiles.add', args);
    expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_BAD_ARGUMENTS' } });
  });

  it.each([[['extra']], [{}], ['[]'], [null]])('refuses arguments %j', async (args) => {
    const reply = await dispatchIpc(implementation(), 'app.info', args);
    expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_BAD_ARGUMENTS' } });
  });

  it('names the field of a form that does not pass its schema', async () => {
    const reply = await dispatchIpc(implementation(), 'profiles.add', [
      { name: 'Work', baseUrl: 'http://api.example.com', apiKey: 'k' },
    ]);
    expect(reply).toMatchObject({
      ok: false,
      error: {
        code: 'IPC_BAD_ARGUMENTS',
        field: 'baseUrl',
        message: expect.stringMatching(/https/),
      },
    });
  });

  it('routes every endpoint of the catalog, and the list-all beside each list', async () => {
    const impl = implementation();
    await dispatchIpc(impl, 'api.ipPolicies.delete', [{ params: { id: 'ipp_1' } }]);
    await dispatchIpc(impl, 'api.tunnelSessions.listAll', [{ requestId: 'r1' }]);
    await dispatchIpc(impl, 'api.ipPolicies.list', []);
    expect(impl.seen).toEqual([
      ['ipPolicies.delete', { params: { id: 'ipp_1' } }],
      ['tunnelSessions.list:all', { requestId: 'r1' }],
      ['ipPolicies.list', undefined],
    ]);
  });

  it.each([
    ['a missing path parameter', 'api.ipPolicies.get', [{}]],
    ['a path id of the wrong kind', 'api.ipPolicies.delete', [{ params: { id: 'cr_1' } }]],
    [
      'a traversal in a path id',
      'api.httpsEdgeRoutes.delete',
      [{ params: { edge_id: 'edghts_1', id: '..' } }],
    ],
    [
      'a body where none is taken',
      'api.ipPolicies.delete',
      [{ params: { id: 'ipp_1' }, body: {} }],
    ],
    ['a query on a single item', 'api.ipPolicies.get', [{ params: { id: 'ipp_1' }, query: {} }]],
    ['a page size over 100', 'api.ipPolicies.list', [{ query: { limit: 101 } }]],
    ['an unknown envelope key', 'api.ipPolicies.create', [{ bdy: {} }]],
    ['an unknown priority', 'api.ipPolicies.get', [{ params: { id: 'ipp_1' }, priority: 'now' }]],
  ])('refuses %s before any request', async (_, name, args) => {
    const impl = implementation();
    const reply = await dispatchIpc(impl, name, args);
    expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_BAD_ARGUMENTS' } });
    expect(impl.seen).toEqual([]);
  });

  it.each([
    ['a body over a limit', [{ body: { description: 'é'.repeat(128) } }], 'ERR_SERVICE_420'],
    ['an unknown field', [{ body: { descripton: 'typo' } }], 'ERR_SERVICE_214'],
    ['a body that is not an object', [{ body: 'office' }], 'ERR_SERVICE_213'],
  ])("refuses %s before any request, with the API's own code and field", async (_, args, code) => {
    const impl = implementation();
    const reply = await dispatchIpc(impl, 'api.ipPolicies.create', args);
    expect(reply).toMatchObject({ ok: false, error: { code } });
    expect(impl.seen).toEqual([]);
  });

  it('names the field of the body it refuses, as the form shows it', async () => {
    const reply = await dispatchIpc(implementation(), 'api.tlsEdges.create', [
      { body: { hostports: ['no-port.example.com'] } },
    ]);
    expect(reply).toMatchObject({
      ok: false,
      error: { code: expect.stringMatching(/^ERR_SERVICE_/), field: 'hostports[0]' },
    });
  });

  it('passes a valid body on as it was written', async () => {
    const impl = implementation();
    await dispatchIpc(impl, 'api.ipPolicies.create', [{ body: { description: 'office' } }]);
    expect(impl.seen).toEqual([['ipPolicies.create', { body: { description: 'office' } }]]);
  });

  it('carries a background call on at that priority, for the client to put after clicks', async () => {
    const impl = implementation();
    await dispatchIpc(impl, 'api.abuseReports.get', [
      { params: { id: 'abrp_1' }, priority: 'background' },
    ]);
    expect(impl.seen).toEqual([
      ['abuseReports.get', { params: { id: 'abrp_1' }, priority: 'background' }],
    ]);
  });

  it('turns a handler that throws into an error reply, never a rejection', async () => {
    const throwing = implementation({
      'app.info': () => {
        throw new Error('keychain locked');
      },
    });
    expect(await dispatchIpc(throwing, 'app.info', [])).toEqual({
      ok: false,
      error: { code: 'IPC_HANDLER_FAILED', message: 'keychain locked' },
    });
  });
});

describe('ipcErrorOf', () => {
  it("carries the API's code, message, status, operation id and field", () => {
    const error = new ApiError({
      status: 400,
      errorCode: 'ERR_SERVICE_420',
      msg: 'description is too long',
      operationId: 'op_1',
      details: { operation_id: 'op_1', field: 'description' },
    });
    expect(ipcErrorOf(error)).toEqual({
      code: 'ERR_SERVICE_420',
      message: 'description is too long',
      status: 400,
      operationId: 'op_1',
      field: 'description',
    });
  });

  it("words the app's own failures and the network's without a stack", () => {
    expect(ipcErrorOf(new AppError('PROFILE_NONE', 'No profile', 'name'))).toEqual({
      code: 'PROFILE_NONE',
      message: 'No profile',
      field: 'name',
    });
    const network = ipcErrorOf(
      new NetworkError('connection', 'api.example.com', 'ECONNREFUSED', null),
    );
    expect(network.code).toBe('NETWORK_ERROR');
    expect(JSON.stringify(network)).not.toContain('at ');
  });

  it('words an SSH failure in the style of the other codes, with its field and the paths at stake', () => {
    const exists = new SshError('file-exists', 'id_burrow already exists', {
      paths: ['/home/me/.ssh/id_burrow'],
      field: 'target.name',
    });
    expect(ipcErrorOf(exists)).toEqual({
      code: 'SSH_FILE_EXISTS',
      message: 'id_burrow already exists',
      paths: ['/home/me/.ssh/id_burrow'],
      field: 'target.name',
    });
    expect(ipcErrorOf(new SshError('io', 'Could not read x'))).toEqual({
      code: 'SSH_IO',
      message: 'Could not read x',
    });
  });
});
