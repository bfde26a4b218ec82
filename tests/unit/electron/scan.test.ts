import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanFuses, scanShell, scanSource } from '../../../scripts/electron-security-scan.ts';

const checks = (text: string, bundle = false) =>
  scanSource('x.ts', text, { bundle }).map((f) => `${f.severity} ${f.check}`);

describe('the electron security scan', () => {
  it('finds nothing HIGH or MEDIUM in electron/ and the packaging config', () => {
    const dir = path.resolve(import.meta.dirname, '../../../electron');
    const files = new Map(
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => [f, readFileSync(path.join(dir, f), 'utf8')] as const),
    );
    const findings = [
      ...[...files].flatMap(([f, t]) => scanSource(f, t)),
      ...scanShell(files),
      ...scanFuses(readFileSync(path.resolve(dir, '../electron-builder.yml'), 'utf8')),
    ];
    expect(findings.filter((f) => f.severity !== 'LOW')).toEqual([]);
  });

  it('flags a window with weakened or missing webPreferences', () => {
    expect(
      checks(
        'new BrowserWindow({ webPreferences: { contextIsolation: false, sandbox: true, nodeIntegration: false, webSecurity: true } })',
      ),
    ).toEqual(['HIGH contextIsolation', 'HIGH contextIsolation']);
    expect(checks('new BrowserWindow({ width: 1 })')).toEqual(['HIGH webPreferences']);
    expect(checks('new BrowserWindow({ webPreferences: {} })')).toHaveLength(4);
  });

  it('flags forbidden settings in source and in the bundle (!0 is true)', () => {
    expect(
      checks(
        'f({ allowRunningInsecureContent: true, experimentalFeatures: true, enableBlinkFeatures: "x" })',
      ),
    ).toEqual([
      'HIGH allowRunningInsecureContent',
      'MEDIUM experimentalFeatures',
      'MEDIUM enableBlinkFeatures',
    ]);
    expect(checks('f({nodeIntegration:!0,webviewTag:!0,sandbox:!1})', true)).toEqual([
      'HIGH nodeIntegration',
      'MEDIUM webviewTag',
      'HIGH sandbox',
    ]);
    expect(checks('import remote from "@electron/remote";')).toEqual(['HIGH remote-module']);
  });

  it('flags unchecked openExternal, unchecked IPC, unguarded protocols, allowed window.open, plain http', () => {
    expect(checks('shell.openExternal(url)')).toEqual(['MEDIUM open-external']);
    expect(checks('if (isExternalLink(url)) void shell.openExternal(url);')).toEqual([]);
    expect(checks('ipcMain.handle("c", (e, a) => run(a))')).toEqual(['HIGH ipc-sender']);
    expect(checks('ipcMain.handle("c", invokeHandler(impl))')).toEqual([]);
    expect(checks('ipcMain.on("c", () => {})')).toEqual(['MEDIUM ipc-handler']);
    expect(checks('protocol.handle("app", (r) => net.fetch(r.url))')).toEqual([
      'HIGH protocol-path',
    ]);
    expect(checks('c.setWindowOpenHandler(() => ({ action: "allow" }))')).toEqual([
      'HIGH window-open',
    ]);
    expect(checks('w.loadURL("http://example.com")')).toEqual(['MEDIUM insecure-load']);
    expect(checks('contextBridge.exposeInMainWorld("x", { ipc: ipcRenderer })')).toEqual([
      'HIGH preload',
    ]);
  });

  it('flags guards missing from the whole shell, and fuses left on', () => {
    expect(scanShell(new Map([['main.ts', 'app.quit()']])).map((f) => f.check)).toEqual([
      'window-open',
      'navigation',
      'permissions',
      'csp',
      'ipc-sender',
      'protocol-path',
      'sandbox',
      'single-instance',
    ]);
    expect(scanFuses('electronFuses:\n  runAsNode: true\n').map((f) => f.message)).toContain(
      'electronFuses.runAsNode must be false',
    );
  });
});
