import type { CommandSpec } from '../args.ts';
import { bashScript } from './bash.ts';
import { fishScript } from './fish.ts';
import { completionModel } from './model.ts';
import { zshScript } from './zsh.ts';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** The completion script of `shell` for these commands. */
export function completionScript(
  shell: Shell,
  commands: Readonly<Record<string, CommandSpec>>,
): string {
  return SCRIPTS[shell](completionModel(commands));
}
