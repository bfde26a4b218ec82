import { afterAll } from 'vitest';

export type Cleanup = (() => Promise<unknown>)[];

/** The steps that undo what a test file set up (sandboxes, folders, keys), run after all its tests, last first. */
export function cleanupAfterAll(): Cleanup {
  const cleanup: Cleanup = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });
  return cleanup;
}
