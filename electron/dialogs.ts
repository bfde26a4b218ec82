import type { BrowserWindow, Dialog, OpenDialogOptions } from 'electron';
import type { Dialogs } from '../core/dialogs/index.ts';
import type { PathChoice } from '../shared/app/ipc/dialogs.ts';

export type DialogApi = Pick<Dialog, 'showOpenDialog' | 'showSaveDialog' | 'showMessageBox'>;

/**
 * core's dialog calls answered by Electron's `dialog` module, attached to the main window when
 * there is one (modal to it), free-standing when only the tray is open.
 */
export function electronDialogs(api: DialogApi, parent: () => BrowserWindow | undefined): Dialogs {
  return {
    async chooseFolder({ title, defaultPath }) {
      const options: OpenDialogOptions = {
        title,
        defaultPath,
        properties: ['openDirectory', 'createDirectory'],
      };
      const window = parent();
      const result = await (window
        ? api.showOpenDialog(window, options)
        : api.showOpenDialog(options));
      return chosen(result.canceled ? undefined : result.filePaths[0]);
    },
    async openFile({ title, extensions }) {
      const options: OpenDialogOptions = {
        title,
        filters: filtersOf(extensions),
        properties: ['openFile'],
      };
      const window = parent();
      const result = await (window
        ? api.showOpenDialog(window, options)
        : api.showOpenDialog(options));
      return chosen(result.canceled ? undefined : result.filePaths[0]);
    },
    async saveFile({ title, defaultPath, extensions }) {
      const filters = filtersOf(extensions);
      const options = { title, defaultPath, filters };
      const window = parent();
      const result = await (window
        ? api.showSaveDialog(window, options)
        : api.showSaveDialog(options));
      return chosen(result.canceled ? undefined : result.filePath);
    },
    async confirm({ title, message, confirmLabel, destructive }) {
      const options = {
        type: destructive ? ('warning' as const) : ('question' as const),
        title,
        message,
        buttons: [confirmLabel, 'Cancel'],
        defaultId: destructive ? 1 : 0,
        cancelId: 1,
        noLink: true,
      };
      const window = parent();
      const { response } = await (window
        ? api.showMessageBox(window, options)
        : api.showMessageBox(options));
      return { status: response === 0 ? 'confirmed' : 'declined' };
    },
  };
}

function filtersOf(extensions: readonly string[] | undefined) {
  return extensions ? [{ name: extensions.join(', '), extensions: [...extensions] }] : undefined;
}

function chosen(path: string | undefined): PathChoice {
  return path ? { status: 'chosen', path } : { status: 'cancelled' };
}
