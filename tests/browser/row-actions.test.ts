import { render } from '@testing-library/svelte';
import { afterEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import RowActions from '../../renderer/src/components/RowActions.svelte';
// The menu's dropdown look, where it is drawn, comes from the window's styles.
import '../../renderer/src/app.css';

const lists: HTMLElement[] = [];
afterEach(() => lists.splice(0).forEach((list) => list.remove()));

it('never lets a blocked action’s reason cover the next row: a click there reaches its button', async () => {
  const sent: string[] = [];
  const row = (name: string, blocked?: string) => ({
    of: name,
    actions: [
      {
        key: 'update',
        label: 'Update',
        name: `Update ${name}`,
        blocked,
        run: () => sent.push(name),
      },
    ],
  });
  render(RowActions, row('laptop', 'Update checks are off on this agent: turn them on first'));
  render(RowActions, row('server'));

  // aria-disabled: a person can click it, where Playwright would wait for it to be enabled.
  await userEvent.click(page.getByRole('button', { name: 'Update laptop' }), { force: true });
  // Focus stays on the blocked button, and the pointer leaves it for the next row's.
  await userEvent.click(page.getByRole('button', { name: 'Update server' }));
  expect(sent).toEqual(['server']);
});

it('still tells why on keyboard focus and on hover', async () => {
  render(RowActions, {
    of: 'laptop',
    actions: [{ key: 'update', label: 'Update', name: 'Update laptop', blocked: 'Off', run() {} }],
  });
  await userEvent.keyboard('{Tab}');
  await expect.element(page.getByRole('tooltip')).toBeVisible();
  await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
  await expect.element(page.getByRole('tooltip', { includeHidden: true })).not.toBeVisible();
  await userEvent.hover(page.getByRole('button', { name: 'Update laptop' }));
  await expect.element(page.getByRole('tooltip')).toBeVisible();
});

/** A folded row's actions in a narrow list pinned `at` the window's top or bottom. */
function foldedAt(at: 'top' | 'bottom') {
  const list = document.body.appendChild(document.createElement('div'));
  lists.push(list);
  list.style.cssText = `container: row-actions / inline-size; width: 600px; position: fixed; ${at}: 8px; right: 8px`;
  const action = (label: string) => ({ key: label, label, name: `${label} office-pc`, run() {} });
  render(RowActions, {
    target: list,
    props: {
      of: 'office-pc',
      actions: ['Restart', 'Update', 'Update and restart', 'Stop'].map(action),
    },
  });
  return page.getByRole('button', { name: 'Actions for office-pc' });
}

it('opens the menu upward on a row at the bottom of the window, all of it in view', async () => {
  await userEvent.click(foldedAt('bottom'));
  const menu = page.getByRole('menu').element().getBoundingClientRect();
  expect(menu.top).toBeGreaterThanOrEqual(0);
  expect(menu.bottom).toBeLessThanOrEqual(window.innerHeight);
  await expect.element(page.getByRole('menuitem', { name: 'Restart', exact: true })).toHaveFocus();
});

it('drops the menu below its button where there is room', async () => {
  const button = foldedAt('top');
  await userEvent.click(button);
  const menu = page.getByRole('menu').element().getBoundingClientRect();
  expect(menu.top).toBeGreaterThan(button.element().getBoundingClientRect().bottom);
});
