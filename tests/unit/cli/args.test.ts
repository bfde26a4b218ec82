import { expect, it } from 'vitest';
import { burrow } from './run.ts';

it('an option followed by another option says it needs a value, and how to give "-x"', async () => {
  const short = await burrow(['export', '-o', '--json']);
  expect(short).toMatchObject({ code: 1, stdout: '' });
  expect(short.stderr).toBe(
    'burrow: -o needs a value (one that starts with "-" is written --output=-VALUE) ' +
      '(see "burrow export --help")\n',
  );
  const long = await burrow(['sessions', '--watch', '--interval', '-5']);
  expect(long.stderr).toMatch(
    /^burrow: --interval needs a value \(one that starts with "-" is written --interval=-VALUE\)/,
  );
});
