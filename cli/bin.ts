#!/usr/bin/env node
/** The `burrow` command: see cli/main.ts. */
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  isTTY: { stdin: process.stdin.isTTY === true, stderr: process.stderr.isTTY === true },
  cwd: process.cwd(),
});
