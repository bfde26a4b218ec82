import {
  PROFILE_NAMES_COMMAND,
  type CompletedOption,
  type CompletionModel,
  type ValueKind,
} from './model.ts';

/** Single-quoted for fish, where only \ and ' are special inside. */
const quoted = (text: string) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

function values(value: ValueKind): string {
  switch (value.kind) {
    case 'flag':
      return '';
    case 'profile':
      return ` -x -a ${quoted(`(${PROFILE_NAMES_COMMAND})`)}`;
    case 'file':
    case 'dir':
      return ' -r -F';
    case 'choice':
      return ` -x -a ${quoted(value.choices.join(' '))}`;
    default:
      return ' -x';
  }
}

function option(condition: string, o: CompletedOption): string {
  const short = o.short === undefined ? '' : ` -s ${o.short}`;
  return `complete -c burrow${condition} -l ${o.long}${short}${values(o.value)} -d ${quoted(o.help)}`;
}

/** `burrow completion fish`: saved as ~/.config/fish/completions/burrow.fish, or sourced. */
export function fishScript(model: CompletionModel): string {
  const lines = [
    '# burrow completion for fish. Load it with: burrow completion fish | source',
    '# or save it as ~/.config/fish/completions/burrow.fish',
    '',
    'complete -c burrow -f',
    ...model.commands.map(
      (c) => `complete -c burrow -n __fish_use_subcommand -a ${c.name} -d ${quoted(c.summary)}`,
    ),
    ...model.global.map((o) => option('', o)),
    ...model.commands.flatMap((c) => {
      const seen = ` -n ${quoted(`__fish_seen_subcommand_from ${c.name}`)}`;
      const first = c.args[0];
      return [
        ...c.options.map((o) => option(seen, o)),
        ...(first?.kind === 'choice'
          ? [
              `complete -c burrow -n ${quoted(`__fish_seen_subcommand_from ${c.name}; and not __fish_seen_subcommand_from ${first.choices.join(' ')}`)} -x -a ${quoted(first.choices.join(' '))}`,
            ]
          : []),
        ...(c.args.some((a) => a.kind === 'file') ? [`complete -c burrow${seen} -F`] : []),
      ];
    }),
    '',
  ];
  return lines.join('\n');
}
