import {
  PROFILE_NAMES_COMMAND,
  valueOptions,
  type CompletedOption,
  type CompletionModel,
  type ValueKind,
} from './model.ts';

const flags = (o: CompletedOption) => [`--${o.long}`, ...(o.short ? [`-${o.short}`] : [])];

/** The words a value completes to, as a bash statement filling COMPREPLY from "$cur". */
function reply(value: ValueKind): string {
  switch (value.kind) {
    case 'profile':
      return '_burrow_profiles';
    case 'file':
      return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))';
    case 'dir':
      return 'compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur"))';
    case 'choice':
      return `COMPREPLY=($(compgen -W '${value.choices.join(' ')}' -- "$cur"))`;
    default:
      return ':';
  }
}

/** The options grouped by what their value completes to, in their first one's order. */
function byReply(options: readonly CompletedOption[]): [string, CompletedOption[]][] {
  const groups = new Map<string, CompletedOption[]>();
  for (const o of options) groups.set(reply(o.value), [...(groups.get(reply(o.value)) ?? []), o]);
  return [...groups];
}

/** `burrow completion bash`: one function, `_burrow`, bound to `burrow`. */
export function bashScript(model: CompletionModel): string {
  const values = valueOptions(model);
  const global = model.global.flatMap(flags).join(' ');
  const commands = model.commands.map((c) => c.name).join(' ');
  const lines = [
    '# burrow completion for bash. Load it with: eval "$(burrow completion bash)"',
    '# or save it as ~/.local/share/bash-completion/completions/burrow',
    '',
    '# Profile names, read from the app as each completion asks (names may hold spaces).',
    '# Matched here rather than by compgen -W, which would expand $(…) in a name.',
    '_burrow_profiles() {',
    '  local name quoted',
    '  while IFS= read -r name; do',
    '    quoted=$(printf \'%q\' "$name")',
    '    if [[ $quoted == "$cur"* ]]; then COMPREPLY+=("$quoted"); fi',
    `  done < <(${PROFILE_NAMES_COMMAND})`,
    '}',
    '',
    '_burrow() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}',
    "  local command='' args=0 i",
    '  COMPREPLY=()',
    '  # The command is the first word that is neither an option nor its value.',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    case ${COMP_WORDS[i]} in',
    `      ${values.flatMap(flags).join('|')}) ((i++)) ;;`,
    '      -*) ;;',
    '      *) if [[ -z $command ]]; then command=${COMP_WORDS[i]}; else ((args++)); fi ;;',
    '    esac',
    '  done',
    '  case $prev in',
    ...byReply(values).map(([r, os]) => `    ${os.flatMap(flags).join('|')}) ${r}; return ;;`),
    '  esac',
    '  if [[ -z $command ]]; then',
    `    COMPREPLY=($(compgen -W '${commands} ${global}' -- "$cur"))`,
    '    return',
    '  fi',
    "  local options=''",
    '  case $command in',
    ...model.commands.map(
      (c) => `    ${c.name}) options='${c.options.flatMap(flags).join(' ')}' ;;`,
    ),
    '  esac',
    '  if [[ $cur == -* ]]; then',
    `    COMPREPLY=($(compgen -W "$options ${global}" -- "$cur"))`,
    '    return',
    '  fi',
    '  case "$command $args" in',
    ...model.commands.flatMap((c) =>
      c.args.map((arg, i) => `    "${c.name} ${i}") ${reply(arg)} ;;`),
    ),
    '  esac',
    '}',
    '',
    'complete -F _burrow burrow',
    '',
  ];
  return lines.join('\n');
}
