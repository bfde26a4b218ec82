import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import '../../renderer/src/app.css';
import { enterSection } from './support/keyboard.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

/*
 * After a navigation the new screen's heading takes focus, so that a screen reader starts
 * there and the next Tab goes on from it. A native app draws no box round a title it moved
 * to; the controls a person tabs to keep their ring.
 */

it('focuses the new screen’s heading without a ring after a keyboard navigation', async () => {
  render(App, { bridge: scriptedBridge() });
  await enterSection('Edges');

  const heading = page.getByRole('heading', { name: 'Edges', level: 1 });
  await expect.element(heading).toHaveFocus();
  // Focused after a key press, the heading matches :focus-visible: no box for all that.
  expect((heading.element() as HTMLElement).matches(':focus-visible')).toBe(true);
  expect(getComputedStyle(heading.element()).outlineStyle).toBe('none');
});

it('keeps the focus ring on a control reached with Tab', async () => {
  render(App, { bridge: scriptedBridge() });
  await enterSection('Backends');
  await expect.element(page.getByRole('heading', { name: 'Backends', level: 1 })).toHaveFocus();

  await userEvent.tab();
  const control = document.activeElement as HTMLElement;
  expect(control.matches('a, button, input, select, textarea')).toBe(true);
  expect(getComputedStyle(control).outlineStyle).toBe('solid');
});
