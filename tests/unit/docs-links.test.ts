import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README and every other Markdown file of the repository stand alone: a person who clones
 * Burrow has nothing beside it, so no page may link to, or name, a file outside the repository
 * (the mission's spec files above all), and every relative link must reach a file (and heading)
 * that exists.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'test-results']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const FILES = markdownFiles(ROOT).map((path) => relative(ROOT, path));

/** Names of files that live beside the repository, never in it. */
const OUTSIDE_NAMES = [
  /management-api\.md/,
  /api-gaps\.md/,
  /\bproduct\.md/,
  /shared\/spec\b/,
  /\.\.\/shared\//,
  /\/work\//,
  /file:\/\//,
];

/** Text outside fenced code blocks, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Targets of inline links and images, `[text](target)`, and of reference definitions. */
function linkTargets(text: string): string[] {
  const inline = [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const references = [...prose(text).matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)];
  return [...inline, ...references].map((m) => m[1] ?? '');
}

/** Path-like words in code spans that climb out of their folder (`../x/y.md`). */
function climbingPaths(text: string): string[] {
  return [...text.matchAll(/`(\.\.\/[^`\s]*)`/g)].map((m) => m[1] ?? '');
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = [...prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)];
  return new Set(headings.map((m) => slug(m[1] ?? '')));
}

const insideRepository = (path: string) => path === ROOT || path.startsWith(ROOT + sep);

describe('Markdown files stand alone', () => {
  it('finds the README and docs/', () => {
    expect(FILES).toContain('README.md');
    expect(FILES).toContain(join('docs', 'api.md'));
  });

  it.each(FILES)('%s names no file outside the repository', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const named = OUTSIDE_NAMES.flatMap((pattern) => text.match(pattern) ?? []);
    expect(named, 'names of files beside the repository').toEqual([]);
    const here = dirname(join(ROOT, file));
    const escaping = [...linkTargets(text).filter((t) => !isExternal(t)), ...climbingPaths(text)]
      .filter((target) => !target.startsWith('#'))
      .filter((target) => !insideRepository(resolve(here, target.split('#')[0] ?? '')));
    expect(escaping, 'paths that leave the repository').toEqual([]);
  });

  it.each(FILES)('%s: every relative link reaches a file and heading that exist', (file) => {
    const here = dirname(join(ROOT, file));
    const broken = linkTargets(readFileSync(join(ROOT, file), 'utf8'))
      .filter((target) => !isExternal(target))
      .filter((target) => {
        const [path = '', anchor] = target.split('#');
        const linked = path === '' ? join(ROOT, file) : resolve(here, decodeURI(path));
        if (!existsSync(linked)) return true;
        return anchor !== undefined && linked.endsWith('.md') && !anchorsOf(linked).has(anchor);
      });
    expect(broken).toEqual([]);
  });
});
