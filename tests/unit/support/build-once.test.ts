import { expect, it } from 'vitest';
import { buildEnvironment } from '../../support/build-once.ts';

it('builds as npm run build:test does: without the NODE_ENV Vitest sets, the rest kept', () => {
  const env = { NODE_ENV: 'test', HOME: '/home/a', PATH: '/usr/bin' };
  expect(buildEnvironment(env)).toEqual({ HOME: '/home/a', PATH: '/usr/bin' });
  // The environment it was given keeps its NODE_ENV: only the build's copy goes without.
  expect(env.NODE_ENV).toBe('test');
});
