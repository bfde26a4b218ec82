import {
  PROFILE_NAMES_COMMAND,
  type CompletedOption,
  type CompletionModel,
  type ValueKind,
} from './model.ts';

/** Single-quoted for zsh. */
const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Help inside an _arguments spec: its brackets and colons would end the description. */
const described = (help: string) => help.replace(/[[\]]/g, (c) => (c === '[' ? '(' : ')'));

function action(value: ValueKind): string {
  switch (value.kind) {
    case 'profile':
      return '_burrow_profiles';
    case 'file':
      return '_files';
    case 'dir':
      return '_files -/';
    case 'choice':
      return `(${value.choices.join(' ')})`;
    default:
      return ' ';
  }
}

/** An option as _arguments reads it: `--state[help]:STATE: ` or `(-o --output)'{-o,--output}'…`. */
function optionSpec(option: CompletedOption): string {
  const value =
    option.value.kind === 'flag' ? '' : `:${option.long.replace(/:/g, '')}:${action(option.value)}`;
  const tail = `[${described(option.help)}]${value}`;
  // Repeatable options may be given again; the others once.
  if (option.short === undefined) return quoted(`--${option.long}${tail}`);
  const both = `-${option.short} --${option.long}`;
  return `${quoted(`(${both})`)}{-${option.short},--${option.long}}${quoted(tail)}`;
}

/** `burrow completion zsh`: for a folder in $fpath (as _burrow), or sourced after compinit. */
export function zshScript(model: CompletionModel): string {
  const global = model.global.map(optionSpec);
  const lines = [
    '#compdef burrow',
    '# burrow completion for zsh. Load it with: source <(burrow completion zsh)',
    '# (after compinit), or save it as _burrow in a folder of $fpath.',
    '',
    '_burrow_profiles() {',
    '  local -a names',
    `  names=("\${(@f)$(${PROFILE_NAMES_COMMAND})}")`,
    "  _describe -t profiles 'profile' names",
    '}',
    '',
    '_burrow() {',
    '  local -a commands',
    '  commands=(',
    ...model.commands.map((c) => `    ${quoted(`${c.name}:${c.summary.replace(/:/g, '\\:')}`)}`),
    '  )',
    '  if (( CURRENT == 2 )); then',
    `    _arguments ${global.join(' ')} '1:command:->command'`,
    "    [[ $state == command ]] && _describe -t commands 'burrow command' commands",
    '    return',
    '  fi',
    '  local command=${words[2]}',
    '  shift words',
    '  (( CURRENT-- ))',
    '  case $command in',
    ...model.commands.map((c) => {
      const args = c.args.map((arg, i) => quoted(`${i + 1}: :${action(arg)}`));
      const specs = [...c.options.map(optionSpec), ...global, ...args];
      return `    ${c.name}) _arguments ${specs.join(' ')} ;;`;
    }),
    '  esac',
    '}',
    '',
    // Autoloaded from $fpath, this file is _burrow's body: complete now; sourced, bind it.
    'if [[ $funcstack[1] == _burrow ]]; then _burrow "$@"; else compdef _burrow burrow; fi',
    '',
  ];
  return lines.join('\n');
}
