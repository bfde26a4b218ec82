/**
 * Runs npm scripts in order, printing how long each took: `tsx scripts/steps.ts a+b c` runs `a`
 * and `b` at the same time, then `c`. Scripts run together have their output held and printed
 * whole when each ends, so that it is not interleaved; a script running alone prints as it goes.
 * Stops after the first group with a failure, with its exit code, the end of each failed step's
 * output printed again last. Beside each time, the CPU its processes used (user + system, every
 * descendant that was waited for): on a machine of two cores, what the suite costs is CPU, and a
 * step's wall time says little while others run. At the end, the machine's busy core-seconds
 * beside the steps' sum, which misses what no step waited for.
 *
 * A step written `~name` runs at background priority (nice 10; as usual on Windows): static
 * checks, which are pure CPU with nothing to wait for, yield to the tests beside them, whose real
 * processes and timers have backstops to meet, and take the time a core would sit idle.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

type Ended = { name: string; code: number; seconds: number; cpu?: number; output: string };

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

// A POSIX shell's `times` prints its own times, then its children's: "0m12.34s 0m1.20s".
const WITH_TIMES = 'npm run "$1"; code=$?; times >&3; exit $code';

function cpuOf(times: string): number | undefined {
  const [user, system] = [...(times.split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map(
    ([, minutes, secs]) => Number(minutes) * 60 + Number(secs),
  );
  return user === undefined || system === undefined ? undefined : user + system;
}

/** Seconds every core of the machine has spent busy (anything but idle) since it started. */
const machineBusy = () =>
  cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0) /
  1000;

const BACKGROUND = '~';

/** How much of a failed step's output is printed again at the end: its failures, as a rule. */
const FAILURE_TAIL_LINES = 60;

function run(step: string, alone: boolean): Promise<Ended> {
  const start = performance.now();
  const background = step.startsWith(BACKGROUND);
  const name = background ? step.slice(BACKGROUND.length) : step;
  const output = alone ? 'inherit' : 'pipe';
  const sh = ['sh', '-c', WITH_TIMES, 'sh', name];
  const [command = 'sh', ...args] = background ? ['nice', '-n', '10', ...sh] : sh;
  const child =
    process.platform === 'win32'
      ? spawn('npm', ['run', name], { stdio: ['ignore', output, output], shell: true })
      : spawn(command, args, { stdio: ['ignore', output, output, 'pipe'] });
  let said = '';
  let times = '';
  child.stdout?.on('data', (chunk: Buffer) => (said += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
  child.stdio[3]?.on('data', (chunk: Buffer) => (times += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) =>
      resolve({
        name,
        code: code ?? (signal ? 1 : 0),
        seconds: seconds(start),
        cpu: cpuOf(times),
        output: said,
      }),
    ),
  );
}

/*
 * The steps' temporary files, in a folder of their own that goes when they pass: a run of the
 * suite made about 250 folders in the system's (apps' data, homes, keys and certificates of the
 * SSH tests), and left them. After a failure it stays, and is named, for a look.
 */
const scratch = mkdtempSync(join(tmpdir(), 'burrow-steps-'));
for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = scratch;

const start = performance.now();
const busyAtStart = machineBusy();
let counted = 0;
for (const group of process.argv.slice(2)) {
  const names = group.split('+');
  const ended = await Promise.all(
    names.map((name) =>
      run(name, names.length === 1).then((step) => {
        process.stdout.write(step.output);
        counted += step.cpu ?? 0;
        const cpu = step.cpu === undefined ? '' : ` (CPU ${step.cpu.toFixed(1)} s)`;
        console.log(
          `steps: ${step.name} ${step.code === 0 ? 'took' : 'FAILED after'} ${step.seconds} s${cpu}`,
        );
        return step;
      }),
    ),
  );
  const failed = ended.filter((step) => step.code !== 0);
  // Again at the end, where a log cut to its tail still shows it: a failure printed when its
  // step ended can be hundreds of lines above, under the output of steps that ended later.
  // A step that ran alone printed as it went: its end is the log's already.
  for (const step of failed.filter((s) => s.output !== ''))
    console.log(
      `\nsteps: ${step.name} FAILED; the end of what it said:\n` +
        step.output.trimEnd().split('\n').slice(-FAILURE_TAIL_LINES).join('\n'),
    );
  if (failed[0]) {
    console.log(`steps: their temporary files are left in ${scratch}`);
    process.exit(failed[0].code);
  }
}
try {
  rmSync(scratch, { recursive: true, force: true });
} catch (error) {
  console.log(`steps: could not remove their temporary files in ${scratch}: ${String(error)}`);
}
const wall = seconds(start);
console.log(`steps: ${process.argv.slice(2).join(' ')} took ${wall} s`);
// The steps' CPU is what their processes waited for; the machine's is everything. The difference
// is mostly Chromium's renderers (its zygote starts them, and they end as no step's children):
// process accounting found 150 of a run's 690 busy core-seconds there, in no step's line.
console.log(
  `steps: the machine was busy ${(machineBusy() - busyAtStart).toFixed(0)} of its ` +
    `${(cpus().length * wall).toFixed(0)} core-seconds; the steps counted ${counted.toFixed(0)} ` +
    `(the rest: processes no step waited for, such as Chromium's renderers, and anything else running)`,
);
