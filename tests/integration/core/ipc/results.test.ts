import { describe, expect, it } from 'vitest';
import { dispatchIpc, type IpcImplementation } from '../../../../core/ipc/dispatch.ts';
import type { AppCallName } from '../../../../shared/app/ipc/contract.ts';
import { checkingResults } from '../../../support/checked-results.ts';
import { startApp } from '../profiles/support.ts';

/*
 * The contract's `result` schemas against real answers. Every test that goes through startApp
 * checks what it calls (see tests/support/checked-results.ts); here, every call a fresh app can
 * answer with no setup is made once. The profiles, SSH and sessions suites make the others.
 */

const PLAIN: readonly (readonly [AppCallName, ...unknown[]])[] = [
  ['app.info'],
  ['profiles.state'],
  ['settings.get'],
  ['settings.update', { theme: 'dark', notifications: { offline: false } }],
  ['governor.state'],
  ['sessions.snapshot'],
  ['agents.snapshot'],
  ['rollout.state'],
  ['sessions.seen'],
  ['sessions.mute', 'agent-key', true],
  ['notifications.pause', 'hour'],
  ['notifications.pause', 'resume'],
  ['tray.model'],
  ['monitor.pause'],
  ['monitor.resume'],
  ['dialog.chooseFolder', { title: 'Folder' }],
  ['dialog.saveFile', { title: 'Save', extensions: ['pub'] }],
  ['dialog.confirm', { title: 'Stop', message: 'Stop it?', confirmLabel: 'Stop' }],
  ['ssh.defaultFolder'],
  ['ssh.listSaved'],
  ['ssh.due'],
  ['api.cancel', 'no-such-list'],
];

describe("the app's answers", () => {
  it('each match the result schema of their call in the contract', async () => {
    const { burrow } = await startApp();
    // The first call that needs the Local sandbox waits for it, as a first window does.
    await dispatchIpc(burrow.implementation, 'api.ipPolicies.list', []);
    for (const [name, ...args] of PLAIN) {
      const reply = await dispatchIpc(burrow.implementation, name, args);
      expect(reply, name).toMatchObject({ ok: true });
    }
  });

  it('fail the call that answers outside its contract, naming the field', async () => {
    const drifting: IpcImplementation = {
      calls: { 'app.info': () => ({ name: 'Burrow', version: 1, shell: 'browser' }) } as never,
      call: () => Promise.reject(new Error('not called')),
      listAll: () => Promise.reject(new Error('not called')),
    };
    const reply = await dispatchIpc(checkingResults(drifting), 'app.info', []);
    expect(reply).toMatchObject({
      ok: false,
      error: {
        message: expect.stringMatching(/^app\.info answered outside its contract: version/),
      },
    });
  });
});
