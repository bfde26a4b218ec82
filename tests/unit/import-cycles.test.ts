import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/*
 * No circle of imports in core/ or shared/: the floors read one way (the ground pieces, then the
 * services, then the composition), so any module can be read, tested and moved with what is
 * below it. Type-only imports count too: a circle of types is the same tangle to a reader.
 */

const root = path.resolve(import.meta.dirname, '../..');
const ROOMS = ['core', 'shared'];
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(dir, file));
}

/** The relative imports of a file inside the scanned rooms, as repository paths. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (!specifier.startsWith('.')) continue;
    const target = path.join(path.dirname(file), specifier);
    if (known.has(target)) found.push(target);
  }
  return found;
}

/** Every circle, each once, as the files around it. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string) => {
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (onStack.has(next)) found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return found;
}

it('finds a circle when there is one (the scanner itself works)', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  const text = `import type { X } from './x.ts';\nexport * from "./y.ts";\nconst z = await import('./z.ts');`;
  expect([...text.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2])).toEqual([
    './x.ts',
    './y.ts',
    './z.ts',
  ]);
});

it('core/ and shared/ import each other in no circle', () => {
  const files = ROOMS.flatMap(sources);
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
  expect(files.length).toBeGreaterThan(100);
  expect(cycles(graph).map((circle) => circle.join(' → '))).toEqual([]);
});
