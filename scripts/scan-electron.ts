/**
 * `npm run scan:electron`: the desktop shell's security scan (scripts/electron-scan.ts). Prints
 * every finding; exits 1 on any HIGH or MEDIUM one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { scanFuses, scanShell, scanSource, type Finding } from './electron-scan.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (dir: string, pattern: RegExp) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => pattern.test(name))
        .map(
          (name) =>
            [
              path.relative(root, path.join(dir, name)),
              readFileSync(path.join(dir, name), 'utf8'),
            ] as const,
        )
    : [];

const sources = new Map(read(path.join(root, 'electron'), /\.ts$/));
const bundles = read(path.join(root, 'dist', 'electron'), /\.c?js$/);
const findings: Finding[] = [
  ...[...sources].flatMap(([file, text]) => scanSource(file, text)),
  ...bundles.flatMap(([file, text]) => scanSource(file, text, { bundle: true })),
  ...scanShell(sources),
  ...scanFuses(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')),
];
for (const f of findings)
  console.log(`${f.severity} ${f.file}${f.line ? `:${f.line}` : ''} [${f.check}] ${f.message}`);
const failing = findings.filter((f) => f.severity !== 'LOW').length;
console.log(
  `electron scan: ${sources.size} source files, ${bundles.length} built files, ${findings.length} findings (${failing} HIGH/MEDIUM)`,
);
process.exit(failing > 0 ? 1 : 0);
