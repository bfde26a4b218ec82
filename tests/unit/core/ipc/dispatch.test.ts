import { describe, expect, it } from 'vitest';
import { dispatchIpc, type IpcHandlers } from '../../../../core/ipc/dispatch.ts';
import { createIpcHandlers } from '../../../../core/ipc/handlers.ts';

const handlers = createIpcHandlers({ version: '9.9.9', shell: 'browser' });

describe('dispatchIpc', () => {
  it('answers a known call with valid arguments', async () => {
    expect(await dispatchIpc(handlers, 'app.info', [])).toEqual({
      ok: true,
      value: { name: 'Burrow', version: '9.9.9', shell: 'browser' },
    });
  });

  it.each([undefined, null, 42, 'no.such.call', 'toString', '__proto__', 'constructor'])(
    'refuses the unknown call %j before any handler runs',
    async (name) => {
      const reply = await dispatchIpc(handlers, name, []);
      expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_UNKNOWN_CALL' } });
    },
  );

  it.each([[['extra']], [{}], ['[]'], [null]])('refuses arguments %j', async (args) => {
    const reply = await dispatchIpc(handlers, 'app.info', args);
    expect(reply).toMatchObject({ ok: false, error: { code: 'IPC_BAD_ARGUMENTS' } });
  });

  it('turns a handler that throws into an error reply, never a rejection', async () => {
    const throwing: IpcHandlers = {
      'app.info': () => {
        throw new Error('keychain locked');
      },
    };
    expect(await dispatchIpc(throwing, 'app.info', [])).toEqual({
      ok: false,
      error: { code: 'IPC_HANDLER_FAILED', message: 'keychain locked' },
    });
  });
});
