import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveUnder } from '../../../../core/security/paths.ts';

const root = path.resolve('/srv/renderer');

describe('resolveUnder', () => {
  it.each([
    ['/index.html', 'index.html'],
    ['/assets/app.js', 'assets/app.js'],
    ['/assets/../index.html', 'index.html'],
    ['/a%20b.css', 'a b.css'],
  ])('resolves %s inside the root', (urlPath, relative) => {
    expect(resolveUnder(root, urlPath)).toBe(path.join(root, relative));
  });

  it.each([
    '/',
    '',
    '/..',
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/../renderer-evil/x.js',
    '/assets/..%2f..%2fx',
    '/%E0%A4%A',
  ])('refuses %j', (urlPath) => {
    expect(resolveUnder(root, urlPath)).toBeUndefined();
  });
});
