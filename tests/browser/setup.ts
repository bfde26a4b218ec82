import { cleanup } from '@testing-library/svelte';
import { afterEach, beforeAll } from 'vitest';
import { page } from 'vitest/browser';
import { freshWindow } from './support/records.ts';

// Each test mounts into the same page; unmount what it left so tests never see each other.
afterEach(() => cleanup());

// The files run one after another in one page (the project is not isolated), so each starts as
// in a page of its own: at the first screen, nothing remembered, no theme set, at the window's
// own size (vite.config.ts).
beforeAll(async () => {
  freshWindow();
  sessionStorage.clear();
  delete document.documentElement.dataset['theme'];
  await page.viewport(1280, 800);
});
