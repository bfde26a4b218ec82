import { expect, test } from '@playwright/test';
import { binary, freshData, launchBurrow as launch, withWindow } from './launch.ts';

/*
 * The desktop shell in real Electron: single instance, permissions, links, native dialogs through
 * the Bridge. Each launch gets its own data folder, so a first launch (which opens the window) is
 * a first launch. Skips where Electron's binary is missing, as app.spec.ts explains.
 */
test.skip(!binary, "Electron's binary is not installed here (it cannot be downloaded)");

/** What the page's globals offer, typed here because this config has no DOM types. */
type PageGlobals = {
  Notification: { requestPermission(): Promise<string> };
  open(url: string): unknown;
  navigator: { clipboard: { writeText(text: string): Promise<void> } };
  document: {
    body: { append(node: unknown): void };
    createElement(tag: 'button'): {
      textContent: string;
      addEventListener(type: 'click', listener: () => void): void;
    };
  };
};

test('a second launch opens the first one’s window instead of starting again', async () => {
  const userData = freshData();
  const first = await launch(userData);
  try {
    await first.firstWindow();
    const second = await launch(userData);
    await second.waitForEvent('close');
    // The first one shows its window (one, focused); the second quit without opening any.
    await expect
      .poll(() => first.evaluate(({ BrowserWindow }) => BrowserWindow.getFocusedWindow() !== null))
      .toBe(true);
    expect(first.windows()).toHaveLength(1);
  } finally {
    await first.close();
  }
});

test('denies permission requests, and sends https links to the browser without a window', () =>
  withWindow(async (page, app) => {
    await app.evaluate(({ shell }) => {
      const opened: string[] = [];
      (globalThis as { opened?: string[] }).opened = opened;
      shell.openExternal = (url: string) => {
        opened.push(url);
        return Promise.resolve();
      };
    });
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as PageGlobals).Notification.requestPermission(),
      ),
    ).toBe('denied');
    await page.evaluate(() => {
      (globalThis as unknown as PageGlobals).open('https://example.com/docs');
      (globalThis as unknown as PageGlobals).open('file:///etc/passwd');
    });
    await expect
      .poll(() => app.evaluate(() => (globalThis as { opened?: string[] }).opened))
      .toEqual(['https://example.com/docs']);
    expect(app.windows()).toHaveLength(1);
  }));

test('a click on the page writes to the clipboard, as its Copy buttons do', () =>
  withWindow(async (page, app) => {
    await app.evaluate(({ clipboard }) => clipboard.writeText('before'));
    await page.evaluate(() => {
      const { document, navigator } = globalThis as unknown as PageGlobals;
      const button = document.createElement('button');
      button.textContent = 'Copy for the test';
      button.addEventListener('click', () => void navigator.clipboard.writeText('from the page'));
      document.body.append(button);
    });
    await page.getByRole('button', { name: 'Copy for the test' }).click();
    await expect
      .poll(() => app.evaluate(({ clipboard }) => clipboard.readText()))
      .toBe('from the page');
  }));

test('a confirmation through the Bridge is the native dialog’s answer', () =>
  withWindow(async (page, app) => {
    await app.evaluate(({ dialog }) => {
      dialog.showMessageBox = (() =>
        Promise.resolve({ response: 0, checkboxChecked: false })) as typeof dialog.showMessageBox;
    });
    const answer = await page.evaluate(() =>
      (
        globalThis as unknown as {
          burrow: { invoke(n: string, ...a: unknown[]): Promise<unknown> };
        }
      ).burrow.invoke('dialog.confirm', { title: 'Stop?', message: 'm', confirmLabel: 'Stop' }),
    );
    expect(answer).toEqual({ status: 'confirmed' });
  }));
