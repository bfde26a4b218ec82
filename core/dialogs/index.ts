import type {
  Confirmation,
  ConfirmRequest,
  dialogCalls,
  FolderRequest,
  OpenFileRequest,
  PathChoice,
  SaveFileRequest,
} from '../../shared/app/ipc/dialogs.ts';
import type { HandlersOf } from '../ipc/handlers.ts';

/** What a shell gives core for the dialog calls: Electron's `dialog` module, or nothing. */
export interface Dialogs {
  chooseFolder(request: FolderRequest): Promise<PathChoice>;
  saveFile(request: SaveFileRequest): Promise<PathChoice>;
  /** Core's own question (which snapshot to open): the path it answers stays in core. */
  openFile(request: OpenFileRequest): Promise<PathChoice>;
  confirm(request: ConfirmRequest): Promise<Confirmation>;
}

/**
 * Browser mode's dialogs: the server cannot show the person a picker of its own disk, so every
 * dialog answers `unavailable` and the renderer asks for a typed path or confirms in the page.
 */
export const unavailableDialogs: Dialogs = {
  chooseFolder: () => Promise.resolve(unavailable('type the folder’s path')),
  saveFile: () => Promise.resolve(unavailable('type the file’s path')),
  openFile: () => Promise.resolve(unavailable('choose the file in the page')),
  confirm: () => Promise.resolve(unavailable('confirm in the page')),
};

function unavailable(what: string) {
  return { status: 'unavailable', reason: `Not available here: ${what}` } as const;
}

/** The dialog calls of the contract, carried to the shell's dialogs. */
export function dialogHandlers(dialogs: Dialogs): HandlersOf<typeof dialogCalls> {
  return {
    'dialog.chooseFolder': (request) => dialogs.chooseFolder(request),
    'dialog.saveFile': (request) => dialogs.saveFile(request),
    'dialog.confirm': (request) => dialogs.confirm(request),
  };
}
