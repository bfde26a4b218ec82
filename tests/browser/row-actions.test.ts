import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import RowActions from '../../renderer/src/components/RowActions.svelte';

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
