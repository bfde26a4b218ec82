import { beforeEach } from 'vitest';
import { whatPagesShow } from './support-window.ts';

// A failed test prints what its pages showed when it failed (a miss says what was seen).
beforeEach(({ onTestFailed }) => {
  onTestFailed(async () => {
    console.error(`What the pages showed:\n${await whatPagesShow()}`);
  });
});
