import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's slowest files, slowest first in each project, as a fresh clone's `.ci/run` timed
 * them on 2 cores (the list is read per project: only a project's own files are ranked).
 * Without Vitest's cache of the last run's durations (CI starts from a fresh clone) Vitest starts
 * the largest files first, and the slowest ones are small: they started last and ran alone at
 * the end, one core idle.
 */
const SLOWEST = [
  // By project, each by its time in one fresh-clone run (crash-recovery 86 s … browser fleet 15 s).
  'tests/e2e/sandbox/crash-recovery.test.ts',
  'tests/e2e/core/fleet/rollout-agents.test.ts',
  'tests/e2e/cli/bin.test.ts',
  'tests/e2e/core/agents/states.test.ts',
  'tests/e2e/core/monitor/agents.test.ts',
  'tests/e2e/sandbox/agents-update.test.ts',
  'tests/e2e/sandbox/cli.test.ts',
  'tests/e2e/web/resources.test.ts',
  'tests/e2e/web/fleet.test.ts',
  'tests/e2e/web/edges.test.ts',
  'tests/e2e/web/sessions.test.ts',
  'tests/e2e/web/accessibility-1280x800.test.ts',
  'tests/e2e/web/accessibility-800x600.test.ts',
  'tests/e2e/web/first-launch.test.ts',
  'tests/e2e/web/forms.test.ts',
  'tests/integration/cli/shared-sandbox.test.ts',
  'tests/integration/sandbox/endpoints.test.ts',
  'tests/integration/sandbox/openssh.test.ts',
  'tests/integration/cli/snapshots-apply.test.ts',
  'tests/integration/core/ssh/service.test.ts',
  'tests/integration/cli/snapshots.test.ts',
  'tests/integration/sandbox/fuzz.test.ts',
  'tests/integration/cli/sessions.test.ts',
  'tests/integration/core/ssh/keys.test.ts',
  'tests/integration/core/ssh/turns.test.ts',
  'tests/integration/cli/waits.test.ts',
  'tests/integration/cli/rollout.test.ts',
  'tests/browser/resources.test.ts',
  'tests/browser/expose.test.ts',
  'tests/browser/fleet.test.ts',
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
