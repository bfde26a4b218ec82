import { GLOBAL_OPTIONS, type OptionSpecs } from './args.ts';
import type { Command } from './command.ts';
import { table } from './io.ts';

/** Two columns, indented, each as wide as its widest entry and two spaces apart. */
function entries(rows: readonly (readonly [string, string])[]): string[] {
  return table(rows)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `  ${line}`);
}

function optionEntries(options: OptionSpecs): [string, string][] {
  return Object.entries(options).map(([name, spec]) => [
    [`--${name}`, ...(spec.short === undefined ? [] : [`-${spec.short}`])].join(', ') +
      (spec.value === undefined ? '' : ` ${spec.value}`),
    spec.help,
  ]);
}

/** `burrow --help`, from the commands' declarations. */
export function overview(commands: Readonly<Record<string, Command>>): string {
  return [
    'usage: burrow COMMAND [options]',
    '',
    'Commands:',
    ...entries(
      Object.entries(commands).map(([name, c]) => [[name, ...c.args].join(' '), c.summary]),
    ),
    '',
    'Options of every command:',
    ...entries(optionEntries(GLOBAL_OPTIONS)),
    '',
    'Exit status: 0 ok, 1 error, 2 "plan" found changes.',
    'Run "burrow COMMAND --help" for a command.',
    '',
  ].join('\n');
}

/** `burrow COMMAND --help`, from its declaration. */
export function commandHelp(name: string, command: Command): string {
  const { summary, details, examples } = command;
  return [
    `usage: burrow ${[name, ...command.args].join(' ')} [options]`,
    '',
    `${summary[0]?.toUpperCase() ?? ''}${summary.slice(1)}.`,
    ...(details === undefined ? [] : [details]),
    '',
    'Options:',
    ...entries(optionEntries({ ...command.options, ...GLOBAL_OPTIONS })),
    ...(examples.length === 0 ? [] : ['', 'Examples:', ...examples.map((e) => `  ${e}`)]),
    '',
  ].join('\n');
}
