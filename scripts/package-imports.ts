/**
 * The packages a built bundle imports (vite's output: `from "x"`, `import("x")`, `require("x")`,
 * and `createRequire(…)("x")`), and whether each resolves inside a folder: a dependency left out
 * of the package, or placed among devDependencies, resolves nowhere there.
 */
import { execFileSync } from 'node:child_process';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\)\s*\(\s*)"([^"]+)"/g;

/** Bare specifiers in `code`, without Node's builtins and `electron` (the runtime's own). */
export function bareImports(code: string): string[] {
  const found = [...code.matchAll(SPECIFIER)].map((m) => m[1] ?? '');
  return [
    ...new Set(found.filter((s) => s && !s.startsWith('.') && !s.startsWith('/') && !isBuiltin(s))),
  ]
    .filter((s) => s !== 'electron')
    .sort();
}

/**
 * The specifiers that do not resolve, as ESM does (exports' `import` condition), from `fromDir`
 * to a file inside `root`, each with why. Resolved in a child Node started there.
 */
export function unresolvedIn(root: string, fromDir: string, specifiers: string[]): string[] {
  const script = `const out = {};
for (const s of ${JSON.stringify(specifiers)}) {
  try { out[s] = import.meta.resolve(s); } catch (e) { out[s] = 'error: ' + e.code; }
}
console.log(JSON.stringify(out));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fromDir,
    env: { PATH: process.env['PATH'] ?? '' },
    encoding: 'utf8',
  });
  const resolved = JSON.parse(output) as Record<string, string>;
  return specifiers.flatMap((s) => {
    const url = resolved[s] ?? 'error: nothing';
    if (!url.startsWith('file:')) return [`${s}: ${url}`];
    const file = fileURLToPath(url);
    return file.startsWith(root + path.sep) ? [] : [`${s}: resolves outside the package (${file})`];
  });
}
