import { expect, it } from 'vitest';
import { buildEnvironment } from '../../support/build-once.ts';

it('builds as npm run build:test does: without the NODE_ENV Vitest sets, the rest kept', () => {
  expect(buildEnvironment({ NODE_ENV: 'test', HOME: '/home/a', PATH: '/usr/bin' })).toEqual({
    HOME: '/home/a',
    PATH: '/usr/bin',
  });
  // Vitest's own process keeps its NODE_ENV: only the build's copy goes without.
  expect(process.env['NODE_ENV']).toBe('test');
});
