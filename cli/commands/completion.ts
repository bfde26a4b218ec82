import { defineCommand } from '../command.ts';

export default defineCommand({
  summary: 'print a completion script for bash, zsh or fish: commands, options, profile names',
  details:
    'Profile names are read from the app as each completion asks (burrow profiles --names), ' +
    'without starting the Local sandbox.',
  args: ['bash|zsh|fish'],
  subcommands: ['bash', 'zsh', 'fish'],
  options: {},
  examples: [
    'eval "$(burrow completion bash)"          # in ~/.bashrc',
    'source <(burrow completion zsh)           # in ~/.zshrc, after compinit',
    'burrow completion fish > ~/.config/fish/completions/burrow.fish',
  ],
  async run({ args: [shell = ''], commands, io }) {
    const { completionScript, SHELLS } = await import('../completion/index.ts');
    const known = SHELLS.find((s) => s === shell);
    // parseCommandLine has refused any other shell already.
    if (known === undefined) return 1;
    io.stdout.write(completionScript(known, commands));
    return 0;
  },
});
