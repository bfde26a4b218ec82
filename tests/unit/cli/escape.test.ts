import { expect, it } from 'vitest';
import { failureLines, table } from '../../../cli/io.ts';
import { escapeControls } from '../../../shared/app/printable.ts';

it('escapes C0, DEL and C1 as \\xNN and \\u00NN, and leaves the rest alone', () => {
  expect(escapeControls('a\x1b[2Jb\x07c\rd\ne\tf\x7fg\x9bh\x80')).toBe(
    'a\\x1b[2Jb\\x07c\\x0dd\\x0ae\\x09f\\x7fg\\u009bh\\u0080',
  );
  expect(escapeControls('Zürich · 東京 🚇 C:\\x')).toBe('Zürich · 東京 🚇 C:\\x');
});

it('escapes table cells before padding them, and every failure line', () => {
  expect(
    table([
      ['a\x1b', 'b'],
      ['cc', 'd'],
    ]),
  ).toBe('a\\x1b  b\ncc     d\n');
  expect(failureLines(new Error('no "\x1b]0;x\x07"'))).toEqual(['no "\\x1b]0;x\\x07"']);
});
