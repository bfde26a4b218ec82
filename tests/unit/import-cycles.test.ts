import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/*
 * No circle of imports in any source folder: the floors read one way (the ground pieces, then the
 * services, then the composition), so any module can be read, tested and moved with what is
 * below it. Type-only imports count too: a circle of types is the same tangle to a reader.
 */

const root = path.resolve(import.meta.dirname, '../..');
const ROOMS = [
  'core',
  'shared',
  'sandbox',
  'cli',
  'electron',
  'web',
  'renderer',
  'scripts',
  'bench',
];
const SOURCE = /\.(ts|js|svelte)$/;
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"]([^'"]+)['"]/g;

/** A circle as text, starting from its first file by name, whichever file the search met first. */
function named(circle: readonly string[]): string {
  const around = circle.slice(0, -1);
  const first = around.indexOf([...around].sort()[0] ?? '');
  const turned = [...around.slice(first), ...around.slice(0, first)];
  return [...turned, turned[0]].join(' → ');
}

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCE.test(file) && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.join(dir, file));
}

/** The relative imports of a file inside the scanned rooms, as repository paths. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? '';
    if (!specifier.startsWith('.')) continue;
    const target = path.join(path.dirname(file), specifier);
    // A component that renders itself (a tree of values) is recursion, not a tangle.
    if (known.has(target) && target !== file) found.push(target);
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
  const text = `import type { X } from './x.ts';\nexport * from "./y.ts";\nconst z = await import('./z.ts');\nimport './w.css';`;
  expect([...text.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3])).toEqual([
    './x.ts',
    './y.ts',
    './z.ts',
    './w.css',
  ]);
});

it('no source folder imports in a circle, .svelte components included', () => {
  const files = ROOMS.flatMap(sources);
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
  expect(files.filter((file) => file.endsWith('.svelte')).length).toBeGreaterThan(20);
  expect(cycles(graph).map(named)).toEqual([]);
});
