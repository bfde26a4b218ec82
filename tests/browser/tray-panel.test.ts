import { render } from '@testing-library/svelte';
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
// The window's own styles: what fits depends on them.
import '../../renderer/src/app.css';
import type { TrayAction, TrayItem, TrayModel } from '../../shared/app/tray.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

/*
 * The header's tray panel with a fleet's menu (three profiles of six agents, as core builds it):
 * it fits the window, its own items (Profile, Pause notifications, Search…) always in view.
 */

const PROFILES = ['Local sandbox', 'Staging', 'Production'];

const item = (
  id: string,
  label: string,
  action: TrayAction = { name: 'app.open', by: 'shell', screen: 'sessions' },
): TrayItem => ({ type: 'item', id, label, enabled: true, action });

function agentMenu(profile: number, n: number): TrayItem {
  const id = `agent:p${profile}-${n}`;
  return {
    type: 'submenu',
    id,
    label: `box-${profile}-${n} · 3.1.2`,
    enabled: true,
    items: [item(`${id}:open`, 'Open in Burrow'), item(`${id}:restart`, 'Restart')],
  };
}

const FLEET_MENU: TrayModel = {
  icon: { state: 'normal', variant: 'burrow', tooltip: 'Burrow · 18 agents online' },
  title: '18',
  items: [
    item('rollout', 'Rolling update: 4 of 12'),
    item('activity', '3 new in Activity'),
    ...PROFILES.flatMap((name, p): TrayItem[] => [
      { type: 'separator', id: `section:p${p}` },
      item(`section:p${p}:headline`, `${name}: 6 agents online`),
      ...Array.from({ length: 6 }, (_, n) => agentMenu(p, n)),
    ]),
    { type: 'separator', id: 'settings' },
    {
      type: 'submenu',
      id: 'profiles',
      label: 'Profile',
      enabled: true,
      items: PROFILES.map((name, p) => ({
        type: 'checkbox',
        id: `profile:p${p}`,
        label: name,
        enabled: p !== 0,
        checked: p === 0,
        action: { name: 'profile.switch', by: 'core', profileId: `p${p}` },
      })),
    },
    {
      type: 'submenu',
      id: 'pause',
      label: 'Pause notifications',
      enabled: true,
      items: [item('pause:hour', 'For 1 hour')],
    },
    { type: 'separator', id: 'app' },
    item('search', 'Search…', { name: 'app.search', by: 'shell' }),
    item('open', 'Open Burrow'),
  ],
};

afterEach(() => page.viewport(1280, 800));

/** Whether a person sees `element`: in the window, and not scrolled away inside the menu. */
function inView(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
  if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
  const top = document.elementFromPoint(x, y);
  return top !== null && (top === element || element.contains(top));
}

it.each([
  [1280, 800],
  [800, 600],
])('fits a fleet of three profiles at %i×%i, its own items in view', async (width, height) => {
  await page.viewport(width, height);
  render(App, { bridge: scriptedBridge({ 'tray.model': () => FLEET_MENU }) });
  await page.getByRole('button', { name: /^Tray:/ }).click();
  const menu = page.getByRole('group', { name: 'Tray menu' });
  await expect.element(menu).toBeVisible();
  const box = menu.element().getBoundingClientRect();
  expect(box.bottom).toBeLessThanOrEqual(window.innerHeight);
  expect(box.right).toBeLessThanOrEqual(window.innerWidth);
  for (const element of [
    menu.getByText('Profile', { exact: true }),
    menu.getByText('Pause notifications', { exact: true }),
    menu.getByRole('button', { name: 'Search…' }),
  ])
    expect(inView(element.element()), element.element().textContent ?? '').toBe(true);
  // The longest profile's headline is one line, as tall as Open Burrow: the menu is as wide as it needs.
  const tall = (name: string) =>
    menu.getByRole('button', { name }).element().getBoundingClientRect().height;
  expect(tall('Local sandbox: 6 agents online')).toBe(tall('Open Burrow'));
  // The agents scroll between them: the last profile's are there, a scroll away.
  await expect.element(menu.getByText('box-2-5 · 3.1.2')).toBeInTheDocument();
});

it('draws the icon’s badge in the theme’s own warning colour, light and dark', async () => {
  const badged: TrayModel = {
    ...FLEET_MENU,
    icon: { state: 'attention', variant: 'burrow-badge', tooltip: 'Burrow · 1 agent offline' },
  };
  render(App, { bridge: scriptedBridge({ 'tray.model': () => badged }) });
  const button = page.getByRole('button', { name: /^Tray:/ });
  await expect.element(button).toBeVisible();
  const badge = button.element().querySelector('.badge');
  if (!badge) throw new Error('no badge drawn');
  // The palette's warning colour, as the theme resolves it.
  const warn = document.body.appendChild(document.createElement('span'));
  warn.style.color = 'var(--warn)';
  const fills = [];
  for (const theme of ['light', 'dark']) {
    document.documentElement.dataset['theme'] = theme;
    expect(getComputedStyle(badge).fill, theme).toBe(getComputedStyle(warn).color);
    fills.push(getComputedStyle(badge).fill);
  }
  warn.remove();
  delete document.documentElement.dataset['theme'];
  expect(fills[0]).not.toBe(fills[1]);
});
