import { describe, expect, it } from 'vitest';
import { burrow } from './run.ts';

/** The entries of a help: its lines indented by two, a term then its text. */
const entries = (help: string) => help.split('\n').filter((line) => /^ {2}\S/.test(line));

/** A term (words one space apart), at least two spaces, then the text. */
const TWO_COLUMNS = /^ {2}\S+(?: \S+)* {2,}\S/;

describe('burrow --help', () => {
  it('keeps at least two spaces between the columns of every entry', async () => {
    const whole = await burrow(['--help']);
    expect(whole.code).toBe(0);
    const commands = entries(whole.stdout.split('\nOptions of every command:\n')[0] ?? '');
    expect(commands.length).toBeGreaterThan(8);
    for (const line of entries(whole.stdout)) expect(line).toMatch(TWO_COLUMNS);
    expect(whole.stdout).toMatch(/^ {2}ssh new\|sign\|renew NAME\|FILE {2,}SSH keys/m);

    for (const name of commands.map((line) => line.trim().split(' ')[0] ?? '')) {
      const help = await burrow([name, '--help']);
      expect(help, name).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(new RegExp(`^usage: burrow ${name}\\b`));
      const options = entries(help.stdout.split('\nOptions:\n')[1]?.split('\n\n')[0] ?? '');
      expect(options.length, name).toBeGreaterThan(4);
      for (const line of options) expect(line, name).toMatch(TWO_COLUMNS);
    }
  });
});
