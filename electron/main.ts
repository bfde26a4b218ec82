import { app, clipboard, dialog, Notification as NativeNotification, powerMonitor } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Store from 'electron-store';
import { createBurrow, type Burrow } from '../core/burrow.ts';
import { osKeychain } from '../core/profiles/keychain.ts';
import { setAsideDamagedSettings } from '../core/settings/damaged.ts';
import type { ConfirmRequest } from '../shared/app/ipc/dialogs.ts';
import { trayRoute, type TrayShell } from '../shared/app/tray.ts';
import { startEmbeddedSandbox } from '../sandbox/embedded.ts';
import { electronDialogs } from './dialogs.ts';
import { registerIpc } from './ipc.ts';
import { applyLaunchAtLogin } from './login-item.ts';
import { forwardNotifications } from './notify.ts';
import { powerPauser } from './power.ts';
import { registerAppScheme, serveRenderer } from './protocol.ts';
import { closeWithin, quitGate } from './quit.ts';
import { LAUNCHED_BEFORE_KEY, opensWindowAtStart } from './startup.ts';
import { startTray } from './tray.ts';
import { electronUpdates, type ElectronUpdates } from './updater.ts';
import { MainWindow } from './windows.ts';

const APP_ID = 'dev.burrow.app';
const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, 'preload.cjs');
const rendererDir = path.join(here, '..', 'renderer');

app.enableSandbox();
registerAppScheme();
// Windows attributes notifications to the app by this id (the installer's shortcut carries it).
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Before the store reads it: electron-store throws on a damaged file, and the app would not start.
  const damagedSettings = setAsideDamagedSettings(app.getPath('userData'));
  if (damagedSettings) console.error(`Burrow: ${damagedSettings.message}`);
  const store = new Store<Record<string, unknown>>({ name: 'settings' });
  // On macOS the dock icon shows only while the window is open: otherwise Burrow is a menu-bar app.
  const window = new MainWindow(preloadPath, store, (open) => {
    if (open) void app.dock?.show();
    else app.dock?.hide();
  });
  let burrow: Burrow | undefined;
  let updater: ElectronUpdates | undefined;
  // Held while shown: a notification collected too early loses its click.
  let updateNotice: NativeNotification | undefined;
  const stops: (() => void)[] = [];
  // A second launch (from the launcher, or the autostart entry) opens the first one's window.
  app.on('second-instance', () => window.open());

  const dialogs = electronDialogs(dialog, () => window.current());
  const confirm = async (request: ConfirmRequest) =>
    (await dialogs.confirm(request)).status === 'confirmed';
  const quitting = quitGate(() => burrow?.fleet.quitQuestion() ?? null, confirm);

  void app.whenReady().then(async () => {
    serveRenderer(rendererDir);
    updater = await electronUpdates({
      isPackaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
      dataDir: path.join(app.getPath('userData'), 'updates'),
      notify: (message) => {
        if (!NativeNotification.isSupported()) return;
        updateNotice = new NativeNotification({ title: 'Burrow', body: message, silent: true });
        updateNotice.on('click', () => window.open(trayRoute({ screen: 'settings' })));
        updateNotice.show();
      },
      quit: () => app.quit(),
    });
    burrow = await createBurrow({
      version: app.getVersion(),
      shell: 'electron',
      dataDir: app.getPath('userData'),
      store,
      secrets: await osKeychain(),
      startLocalSandbox: startEmbeddedSandbox,
      dialogs,
      damagedSettings,
      updates: updater.updates,
    });
    registerIpc(burrow.implementation, burrow.events);
    const { tray, notifications, monitor } = burrow;

    const shell: TrayShell = {
      runInCore: (itemId) => tray.run(itemId),
      confirm,
      open: (route) => window.open(route),
      copy: (text) => clipboard.writeText(text),
      quit: () => {
        quitting.confirmed();
        app.quit();
      },
    };
    const report = (error: unknown) => console.error('Burrow: tray action failed:', error);
    stops.push(startTray(tray, path.join(app.getAppPath(), 'build', 'tray'), shell, report));
    if (NativeNotification.isSupported()) {
      // Held until closed or clicked: a notification collected too early loses its click.
      const shown = new Set<NativeNotification>();
      stops.push(
        forwardNotifications(
          notifications,
          (options, on) => {
            const native = new NativeNotification(options);
            const forget = () => shown.delete(native);
            native.on('click', () => {
              forget();
              on.click();
            });
            native.on('action', (event) => {
              forget();
              on.action(event.actionIndex);
            });
            native.on('close', forget);
            shown.add(native);
            native.show();
          },
          {
            openWindow: (route) => window.open(route),
            report: (error) => console.error('Burrow: notification action failed:', error),
            platform: process.platform,
          },
        ),
      );
    }
    const pauser = powerPauser(monitor);
    powerMonitor.on('suspend', () => pauser.begin('suspend'));
    powerMonitor.on('resume', () => pauser.end('suspend'));
    powerMonitor.on('lock-screen', () => pauser.begin('lock-screen'));
    powerMonitor.on('unlock-screen', () => pauser.end('lock-screen'));

    const settings = burrow.settings;
    let launchAtLogin = settings.get().launchAtLogin;
    const applyLogin = () =>
      void applyLaunchAtLogin(launchAtLogin, app).catch((error: unknown) =>
        console.error('Burrow: could not change launch at login:', error),
      );
    applyLogin();
    stops.push(
      settings.onChange((next) => {
        if (next.launchAtLogin === launchAtLogin) return;
        launchAtLogin = next.launchAtLogin;
        applyLogin();
      }),
    );

    const start = {
      argv: process.argv,
      launchedBefore: store.get(LAUNCHED_BEFORE_KEY) === true,
      openedAtLogin:
        process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true,
    };
    store.set(LAUNCHED_BEFORE_KEY, true);
    if (opensWindowAtStart(start)) window.open();
    else app.dock?.hide();
    app.on('activate', () => window.open());
  });

  // Quitting closes core once (monitor, embedded sandbox, agents, handles), and exits anyway when
  // that hangs: Burrow must never linger out of sight.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    event.preventDefault();
    // A running rollout is asked about first (core words the question); no means Burrow stays.
    void quitting.allowed().then((go) => {
      if (!go || closing) return;
      closing = true;
      void closeWithin(async () => {
        for (const stop of stops) stop();
        await burrow?.close();
        updater?.quitting();
      }).then((outcome) => {
        if (outcome === 'timed-out') console.error('Burrow: closing took too long; exiting anyway');
        app.exit(0);
      });
    });
  });
  // Closing the window leaves Burrow running in the tray (listening is what keeps it running).
  app.on('window-all-closed', () => undefined);
}
