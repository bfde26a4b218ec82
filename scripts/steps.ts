/**
 * Runs npm scripts in order, printing how long each took: `tsx scripts/steps.ts a+b c` runs `a`
 * and `b` at the same time, then `c`. Scripts run together have their output held and printed
 * whole when each ends, so that it is not interleaved; a script running alone prints as it goes.
 * Stops after the first group with a failure, with its exit code.
 */
import { spawn } from 'node:child_process';

type Ended = { name: string; code: number; seconds: number; output: string };

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

function run(name: string, alone: boolean): Promise<Ended> {
  const start = performance.now();
  const child = spawn('npm', ['run', name], {
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), seconds: seconds(start), output }),
    ),
  );
}

const start = performance.now();
for (const group of process.argv.slice(2)) {
  const names = group.split('+');
  const ended = await Promise.all(
    names.map((name) =>
      run(name, names.length === 1).then((step) => {
        process.stdout.write(step.output);
        console.log(
          `steps: ${name} ${step.code === 0 ? 'took' : 'FAILED after'} ${step.seconds} s`,
        );
        return step;
      }),
    ),
  );
  const failed = ended.find((step) => step.code !== 0);
  if (failed) process.exit(failed.code);
}
console.log(`steps: ${process.argv.slice(2).join(' ')} took ${seconds(start)} s`);
