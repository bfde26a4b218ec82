import { describe, expect, it } from 'vitest';
import { invokeHandler } from '../../../electron/ipc-guard.ts';
import type { IpcImplementation } from '../../../core/ipc/dispatch.ts';
import { standInInvokeEvent } from '../../support/electron-stand-in.ts';

const implementation = {
  calls: { 'app.info': () => ({ name: 'Burrow', version: '1.0.0', shell: 'electron' }) },
} as unknown as IpcImplementation;
const handle = invokeHandler(implementation);
const refused = { ok: false, error: { code: 'IPC_UNTRUSTED_SENDER', message: 'call refused' } };

describe('the one ipcMain handler (with a stand-in for Electron)', () => {
  it('answers our page on the app scheme', async () => {
    const reply = await handle(
      standInInvokeEvent('app://burrow/index.html#/sessions'),
      'app.info',
      [],
    );
    expect(reply).toEqual({
      ok: true,
      value: { name: 'Burrow', version: '1.0.0', shell: 'electron' },
    });
  });

  it.each([
    ['another origin', 'https://example.com/'],
    ['a file page', 'file:///etc/passwd'],
    ['a look-alike host', 'app://burrow.evil/index.html'],
    ['an empty url', ''],
  ])('refuses %s', async (_, url) => {
    expect(await handle(standInInvokeEvent(url), 'app.info', [])).toEqual(refused);
  });

  it('refuses a subframe, even of our own page', async () => {
    const event = standInInvokeEvent('app://burrow/index.html', { mainFrame: false });
    expect(await handle(event, 'app.info', [])).toEqual(refused);
  });

  it('refuses a frame that is gone', async () => {
    expect(
      await handle({ senderFrame: null, sender: { mainFrame: null } }, 'app.info', []),
    ).toEqual(refused);
  });

  it('checks the call against the contract after the sender', async () => {
    const event = standInInvokeEvent('app://burrow/index.html');
    const unknown = await handle(event, 'fs.readFile', ['/etc/passwd']);
    const badArgs = await handle(event, 'app.info', ['extra']);
    expect(unknown.ok || badArgs.ok).toBe(false);
  });
});
