import { expect, it } from 'vitest';
import { failureLines, jsonText, table } from '../../../cli/io.ts';
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

it('writes JSON with every control, separator and bidi control escaped, and parses back exactly', () => {
  const every = Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).join('');
  const value = { [`k${every}`]: [`${every}\u2028\u2029\u061c\u200e\u202e\u2066\u2069 ok é 🚇`] };
  for (const indent of [undefined, 2]) {
    const text = jsonText(value, indent);
    expect(text).not.toMatch(/[^\P{Cc}\n]|[\p{Zl}\p{Zp}\p{Bidi_Control}]/u);
    expect(text).toContain('\\u009b\\u009c\\u009d');
    expect(text).toContain(' ok é 🚇');
    expect(JSON.parse(text)).toEqual(value);
  }
  expect(jsonText([1, 2], 2)).toBe('[\n  1,\n  2\n]');
});
