/**
 * The closing line of `npm test`: every runner's counts added up, as `tests: N passed, N failed,
 * N skipped`, from the JSON reports the runners wrote into test-results/. `--reset` clears the
 * reports of an earlier run first, so a step that did not run cannot be counted.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const dir = 'test-results';

if (process.argv.includes('--reset')) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.exit(0);
}

type Counts = { passed: number; failed: number; skipped: number };
type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
};
type PlaywrightReport = {
  stats: { expected: number; unexpected: number; skipped: number; flaky: number };
};

function countsOf(report: unknown): Counts {
  if (typeof report === 'object' && report !== null && 'stats' in report) {
    const { stats } = report as PlaywrightReport;
    return {
      passed: stats.expected + stats.flaky,
      failed: stats.unexpected,
      skipped: stats.skipped,
    };
  }
  const vitest = report as VitestReport;
  return {
    passed: vitest.numPassedTests,
    failed: vitest.numFailedTests,
    skipped: vitest.numPendingTests + vitest.numTodoTests,
  };
}

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const file of readdirSync(dir).filter((name) => /^[a-z0-9-]+\.json$/.test(name))) {
  const counts = countsOf(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
  console.log(
    `${path.basename(file, '.json')}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
  );
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
