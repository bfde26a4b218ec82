import { expect } from 'vitest';
import { page, userEvent, type Locator } from 'vitest/browser';

/** Opens a section as a keyboard user does: its sidebar link focused, then Enter. Its link. */
export async function enterSection(name: string): Promise<Locator> {
  const link = page.getByRole('link', { name, exact: true });
  await expect.element(link).toBeVisible();
  (link.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');
  return link;
}
