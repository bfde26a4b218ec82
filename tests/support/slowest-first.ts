import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's slowest files, slowest first in each project (each took 12 to 25 s of a loaded
 * 2-core run; the sandbox's fuzz suite, 10,400 requests, took up to 130 s beside the checks).
 * Without Vitest's cache of the last run's durations (CI starts from a fresh clone) Vitest starts
 * the largest files first, and the slowest ones are small: they started last and ran alone at
 * the end, one core idle.
 */
const SLOWEST = [
  'tests/e2e/core/fleet/rollout-agents.test.ts',
  'tests/e2e/web/resources.test.ts',
  'tests/e2e/web/sessions.test.ts',
  'tests/e2e/core/agents/states.test.ts',
  'tests/e2e/web/accessibility-800x600.test.ts',
  'tests/e2e/core/monitor/agents.test.ts',
  'tests/e2e/cli/bin.test.ts',
  'tests/e2e/web/accessibility-1280x800.test.ts',
  'tests/e2e/sandbox/crash-recovery.test.ts',
  'tests/e2e/sandbox/agents-update.test.ts',
  'tests/e2e/web/edges.test.ts',
  'tests/integration/sandbox/fuzz.test.ts',
  'tests/integration/core/api/resilience.test.ts',
  'tests/integration/core/ssh/ipc.test.ts',
  'tests/integration/sandbox/openssh.test.ts',
  'tests/integration/web/ipc-fuzz.test.ts',
  'tests/integration/cli/sessions.test.ts',
];

/** Vitest's order where its cache knows every file's duration; else the slowest known first. */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const file = (spec: TestSpecification) => path.relative(root, spec.moduleId);
    if (sorted.every((s) => this.ctx.cache.getFileTestResults(`${s.project.name}:${file(s)}`)))
      return sorted;
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST.indexOf(file(spec));
      return at < 0 ? SLOWEST.length : at;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
