/**
 * `npm run icons`: draws the app and tray icons from their SVG in build/ into the PNGs committed
 * beside them, in every size the packagers and trays take. Rendered by the Chromium the tests
 * use (no network, no image library); rerun after changing an SVG.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';
import { TRAY_ICONS } from '../shared/app/tray.ts';
import { chromiumArgs, chromiumExecutable } from '../tests/support/chromium.ts';

const build = path.resolve(import.meta.dirname, '..', 'build');
// Linux takes a folder of sizes; macOS and Windows make theirs from build/icon.png (1024).
const APP_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
/** Tray icons at 1x and 2x (`@2x`, which Electron picks on high-density displays). */
const TRAY_SIZES = [
  [16, ''],
  [32, '@2x'],
] as const;

const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
const page = await browser.newPage();

async function render(svg: string, size: number, file: string): Promise<void> {
  await page.setViewportSize({ width: size, height: size });
  const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<style>*{margin:0}</style>${sized}`);
  writeFileSync(file, await page.locator('svg').screenshot({ omitBackground: true }));
}

try {
  const appIcon = readFileSync(path.join(build, 'icon.svg'), 'utf8');
  mkdirSync(path.join(build, 'icons'), { recursive: true });
  for (const size of APP_SIZES)
    await render(appIcon, size, path.join(build, 'icons', `${size}x${size}.png`));
  await render(appIcon, 1024, path.join(build, 'icon.png'));

  for (const name of Object.values(TRAY_ICONS)) {
    const svg = readFileSync(path.join(build, 'tray', `${name}.svg`), 'utf8');
    // macOS tints template images itself: black on transparent, the name ending in Template.
    const template = svg.replaceAll(/#[0-9a-f]{6}/gi, '#000000');
    for (const [size, suffix] of TRAY_SIZES) {
      await render(svg, size, path.join(build, 'tray', `${name}${suffix}.png`));
      await render(template, size, path.join(build, 'tray', `${name}Template${suffix}.png`));
    }
  }
} finally {
  await browser.close();
}
