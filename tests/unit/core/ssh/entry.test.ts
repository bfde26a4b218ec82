import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/*
 * The rest of the app reaches core/ssh through its one entry, service.ts, handlers.ts (the
 * contract's calls) and app.ts (the service as the app runs it, with its watches): the rooms
 * inside can be renamed and split without touching anything else.
 * Tests may reach inside.
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const SSH = 'core/ssh';
const ENTRIES = new Set([`${SSH}/service.ts`, `${SSH}/handlers.ts`, `${SSH}/app.ts`]);
const OUTSIDE = [
  'bench',
  'cli',
  'core',
  'electron',
  'renderer',
  'sandbox',
  'scripts',
  'shared',
  'web',
];
const QUOTED_RELATIVE = /['"](\.\.?\/[^'"\n]+\.ts)['"]/g;

/** `file`'s relative paths to modules, as repository paths. */
function targetsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(QUOTED_RELATIVE)].map((m) => path.join(path.dirname(file), m[1] ?? ''));
}

it('nothing outside core/ssh imports a file inside it but its entries', () => {
  const files = OUTSIDE.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|svelte)$/.test(f) && !f.includes('node_modules'))
      .map((f) => path.join(dir, f)),
  ).filter((file) => !file.startsWith(`${SSH}/`));
  const inner = files.flatMap((file) =>
    targetsOf(file)
      .filter((target) => target.startsWith(`${SSH}/`) && !ENTRIES.has(target))
      .map((target) => `${file} → ${target}`),
  );
  expect(inner).toEqual([]);
});
