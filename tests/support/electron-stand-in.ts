import type { Dialog } from 'electron';
import type { DialogApi } from '../../electron/dialogs.ts';
import type { InvokeEvent } from '../../electron/ipc-guard.ts';
import type { LoginItemApp } from '../../electron/login-item.ts';

/*
 * A stand-in for the few parts of Electron's API the shell's glue touches, for the unit tests
 * that run where Electron's binary does not. Each piece has the shape of Electron's own types, so
 * the glue cannot drift from them; it records what was asked of it.
 */

/** An ipcMain invoke event from a frame at `url`, the page's main frame unless told otherwise. */
export function standInInvokeEvent(
  url: string,
  options: { mainFrame?: boolean } = {},
): InvokeEvent {
  const frame = { url };
  return { senderFrame: frame, sender: { mainFrame: options.mainFrame === false ? {} : frame } };
}

type DialogAnswers = {
  folder?: string | undefined;
  /** What an open dialog for a file (not a folder) answers. */
  openFile?: string | undefined;
  saveFile?: string | undefined;
  /** The index of the button pressed in a message box. */
  button?: number;
};

/** Electron's `dialog` module answering as the person would; `calls` lists what was shown. */
export function standInDialog(
  answers: DialogAnswers,
): DialogApi & { calls: [string, unknown, unknown][] } {
  const calls: [string, unknown, unknown][] = [];
  const record = (name: string, args: unknown[]) => {
    const [first, second] = args;
    // Electron's overloads: (window, options) or (options).
    calls.push(second === undefined ? [name, undefined, first] : [name, first, second]);
  };
  const api = {
    calls,
    showOpenDialog: (...args: unknown[]) => {
      record('open', args);
      const options = (args[1] ?? args[0]) as { properties?: string[] };
      const path = options.properties?.includes('openFile') ? answers.openFile : answers.folder;
      return Promise.resolve({ canceled: path === undefined, filePaths: path ? [path] : [] });
    },
    showSaveDialog: (...args: unknown[]) => {
      record('save', args);
      const path = answers.saveFile;
      return Promise.resolve({ canceled: path === undefined, filePath: path ?? '' });
    },
    showMessageBox: (...args: unknown[]) => {
      record('message', args);
      return Promise.resolve({ response: answers.button ?? 1, checkboxChecked: false });
    },
  };
  return api as unknown as Pick<Dialog, keyof DialogApi> & { calls: typeof calls };
}

/** Electron's `app`, as far as login items go. */
export function standInLoginApp(): LoginItemApp & { loginItems: unknown[] } {
  const loginItems: unknown[] = [];
  return {
    loginItems,
    setLoginItemSettings: (settings) => void loginItems.push(settings),
    getName: () => 'Burrow',
  };
}
