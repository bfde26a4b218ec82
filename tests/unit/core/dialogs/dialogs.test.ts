import { describe, expect, it, vi } from 'vitest';
import {
  dialogHandlers,
  unavailableDialogs,
  type Dialogs,
} from '../../../../core/dialogs/index.ts';
import { dispatchIpc, type IpcImplementation } from '../../../../core/ipc/dispatch.ts';

function implementation(dialogs: Dialogs): IpcImplementation {
  return { calls: dialogHandlers(dialogs) } as unknown as IpcImplementation;
}

describe('dialog calls', () => {
  it('answer unavailable in browser mode, so the renderer asks for a typed path', async () => {
    const reply = await dispatchIpc(implementation(unavailableDialogs), 'dialog.chooseFolder', [
      { title: 'Save keys in' },
    ]);
    expect(reply).toEqual({
      ok: true,
      value: { status: 'unavailable', reason: 'Not available here: type the folder’s path' },
    });
  });

  it('reach the shell’s dialogs only with arguments the contract accepts', async () => {
    const confirm = vi.fn(() => Promise.resolve({ status: 'confirmed' as const }));
    const impl = implementation({ ...unavailableDialogs, confirm });
    const request = { title: 'Stop?', message: 'It disconnects.', confirmLabel: 'Stop session' };
    expect(await dispatchIpc(impl, 'dialog.confirm', [request])).toEqual({
      ok: true,
      value: { status: 'confirmed' },
    });
    const refused = await dispatchIpc(impl, 'dialog.confirm', [{ ...request, script: 'x' }]);
    expect(refused.ok).toBe(false);
    expect(confirm).toHaveBeenCalledTimes(1);
  });
});
