import { Menu, nativeImage, Tray } from 'electron';
import path from 'node:path';
import { followTrayItem, type TrayModel, type TrayShell } from '../shared/app/tray.ts';
import { trayIconFile, trayTemplate, trayTexts } from './tray-template.ts';

/** What the tray needs from core's tray service. */
export interface TrayModelSource {
  model(): TrayModel;
  /** Called on every change of the model; returns the unsubscribe. */
  onChange(listener: (model: TrayModel) => void): () => void;
  /** A session, profile or notification item of the menu, carried out by core by its id. */
  run(itemId: string): Promise<unknown>;
}

/**
 * The tray icon, showing core's model and rebuilt on every change of it; a click follows the
 * item (`followTrayItem`) with this shell's ways of asking, opening, copying and quitting. A
 * failed action is reported, not thrown into Electron's click handler. Returns the stop, which
 * unsubscribes and removes the icon.
 */
export function startTray(
  source: TrayModelSource,
  iconDir: string,
  shell: TrayShell,
  report: (error: unknown) => void,
): () => void {
  const tray = new Tray(icon(iconDir, source.model()));
  const render = (model: TrayModel) => {
    tray.setImage(icon(iconDir, model));
    const { title, tooltip } = trayTexts(model, process.platform);
    if (process.platform === 'darwin') tray.setTitle(title);
    tray.setToolTip(tooltip);
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayTemplate(model.items, (item) => void followTrayItem(item, shell).catch(report)),
      ),
    );
  };
  render(source.model());
  const unsubscribe = source.onChange(render);
  return () => {
    unsubscribe();
    tray.destroy();
  };
}

function icon(iconDir: string, model: TrayModel) {
  // nativeImage picks up the …@2x.png beside the file, and a …Template name marks it for tinting.
  return nativeImage.createFromPath(
    path.join(iconDir, trayIconFile(model.icon.state, process.platform)),
  );
}
