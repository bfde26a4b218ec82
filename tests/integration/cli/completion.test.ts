import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtBurrow } from '../../support/built-cli.ts';
import { burrow, oneLine, tempDir } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';
import { writeProfiles } from '../core/profiles/support.ts';

const run = promisify(execFile);

/** A shell on this machine, or undefined. */
async function shell(name: string): Promise<string | undefined> {
  const found = await run('sh', ['-c', `command -v ${name}`]).catch(() => undefined);
  return found?.stdout.trim() || undefined;
}

const cleanup = cleanupAfterAll();

// The installed command as a shell finds it: `burrow` on the PATH, the app's data folder set.
let dir: string;
let env: NodeJS.ProcessEnv;
const script = (name: string) => join(dir, `burrow.${name}`);
// A name a careless script would run ($(…) expanded by compgen -W) rather than offer.
const TRAP = '$(touch pwned)';

beforeAll(async () => {
  dir = await tempDir(cleanup);
  await symlink(builtBurrow(), join(dir, 'burrow'));
  const profile = (id: string, name: string) => ({ id, name, baseUrl: '', kind: 'local' });
  await writeProfiles(
    dir,
    [profile('prf_local0001', 'Local sandbox'), profile('prf_trap00001', TRAP)],
    'prf_local0001',
  );
  env = { ...process.env, PATH: `${dir}${delimiter}${process.env['PATH']}`, BURROW_DATA_DIR: dir };
  for (const name of ['bash', 'zsh', 'fish']) {
    const { stdout } = await run('burrow', ['completion', name], { env });
    await writeFile(script(name), stdout);
  }
});

/** What bash's completion offers for the words typed (the last one being completed). */
async function complete(...words: string[]): Promise<string[]> {
  const typed = words.map((w) => `'${w}'`).join(' ');
  const { stdout } = await run(
    'bash',
    [
      '-c',
      `cd "$1" && source ./burrow.bash && COMP_WORDS=(burrow ${typed}) && ` +
        `COMP_CWORD=${words.length} && _burrow && printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      dir,
    ],
    { env },
  );
  return stdout.split('\n').filter((line) => line !== '');
}

describe('burrow completion', () => {
  it('prints scripts each shell reads without a syntax error (zsh and fish where installed)', async () => {
    await run('bash', ['-n', script('bash')]);
    const zsh = await shell('zsh');
    if (zsh) await run(zsh, ['-n', script('zsh')]);
    const fish = await shell('fish');
    if (fish) await run(fish, ['--no-execute', script('fish')]);
  });

  it('bash completes commands, options, subcommands and choices', async () => {
    expect(await complete('se')).toEqual(['sessions']);
    expect(await complete('sessions', '--wa')).toEqual(['--watch']);
    expect(await complete('ssh', '')).toEqual(['new', 'sign', 'renew']);
    expect(await complete('rollout', '--on-failure', 's')).toEqual(['stop', 'skip']);
    // An option's value is no command: `sessions` is still the command here.
    expect(await complete('--profile', 'x', 'sessions', '--int')).toEqual(['--interval']);
  });

  it('bash completes profile names from the app, quoted, and runs nothing a name holds', async () => {
    expect(await complete('sessions', '--profile', 'Lo')).toEqual(['Local\\ sandbox']);
    expect(await complete('plan', '--from-profile', '')).toEqual([
      'Local\\ sandbox',
      '\\$\\(touch\\ pwned\\)',
    ]);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('refuses a shell it has no script for, in one line', async () => {
    const result = await burrow(['completion', 'tcsh']);
    expect(result.code).toBe(1);
    oneLine(result, 'burrow completion tcsh: not one of bash, zsh, fish');
  });
});
