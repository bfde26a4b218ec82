/**
 * Packages the built app (dist/, from `npm run build`) for Linux with electron-builder's `dir`
 * target: the folder a user's AppImage or deb would hold, without the installer around it. Its
 * configuration is electron-builder.yml's, so electron-builder validates the whole file (mac,
 * win and their installers too) on each run; only the Electron distribution and the output
 * folder are given here.
 */
import path from 'node:path';
import { build, Platform } from 'electron-builder';

export type PackagedApp = {
  /** The app's folder: the executable and resources/. */
  appOutDir: string;
  /** The executable, whose fuses electron-builder flipped. */
  binary: string;
  /** resources/app.asar; what electron-builder unpacked sits in app.asar.unpacked beside it. */
  asar: string;
};

export async function packageDir(options: {
  /** An unpacked Electron distribution to start from (its `electron` file is copied). */
  electronDist: string;
  output: string;
}): Promise<PackagedApp> {
  let appOutDir = '';
  let executable = '';
  await build({
    targets: Platform.LINUX.createTarget('dir'),
    publish: 'never',
    config: {
      electronDist: options.electronDist,
      directories: { output: options.output },
      afterPack: (context) => {
        appOutDir = context.appOutDir;
        executable = (context.packager as { executableName?: string }).executableName ?? '';
      },
    },
  });
  return {
    appOutDir,
    binary: path.join(appOutDir, executable),
    asar: path.join(appOutDir, 'resources', 'app.asar'),
  };
}
