#!/usr/bin/env node
/** The `burrow` command: see cli/main.ts. */
import { main } from './main.ts';

const argv = process.argv.slice(2);
// Ctrl-C ends a watch cleanly (exit 0) and cancels a rollout between its steps; any other command it kills as usual, and an apply so
// killed is carried on by running it again.
const stop = new AbortController();
// `on`, not `once`: conf's exit hook (when-exit) raises SIGINT again after its own handler ran,
// which would kill the command before the watch has closed what it opened.
if (argv.includes('--watch') || argv[0] === 'rollout') process.on('SIGINT', () => stop.abort());

// `burrow export | head`: a reader that has had enough is no error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  isTTY: { stdin: process.stdin.isTTY === true, stderr: process.stderr.isTTY === true },
  cwd: process.cwd(),
  signal: stop.signal,
  // Tests that spawn the command keep their keys under a service of their own.
  ...(process.env['BURROW_KEYCHAIN_SERVICE'] && {
    keychainService: process.env['BURROW_KEYCHAIN_SERVICE'],
  }),
});
