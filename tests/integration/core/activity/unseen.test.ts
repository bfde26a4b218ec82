import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { activityHandlers, appRecorder } from '../../../../core/activity/handlers.ts';
import { ActivityRecord } from '../../../../core/activity/record.ts';
import { UnseenActivity } from '../../../../core/activity/unseen.ts';
import { bin } from '../../../support/bins.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';

const run = promisify(execFile);

let dir: string | undefined;
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  if (dir) await removeDir(dir);
  dir = undefined;
});

function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (check()) resolve();
      else if (Date.now() > end) reject(new Error('timed out'));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

describe('the unseen activity', { timeout: 30_000 }, () => {
  it("counts the app's entries and another process's, and none once the screen is seen", async () => {
    dir = await tempDir('burrow-unseen-');
    // The other process stamps its entries with the real clock; the screen is seen a step later
    // on the record's, not after a sleep that makes the millisecond turn.
    let later = 0;
    const record = new ActivityRecord(dir, () => Date.now() + later);
    const unseen = new UnseenActivity(record);
    const recorder = appRecorder(record, unseen);
    stops.push(() => unseen.close(), recorder.stop);
    const heard: number[] = [];
    unseen.onChange((n) => heard.push(n));

    recorder.record({
      kind: 'notice',
      at: Date.now(),
      profileId: 'prf_00000001',
      title: 'web is offline',
      detail: '',
      notice: 'offline',
    });
    expect(unseen.unseen()).toBe(1);
    // `burrow restart` in another process: the folder's change is counted too.
    await run(process.execPath, [bin('activity-appender'), dir, 'cli', '2']);
    await until(() => unseen.unseen() === 3);

    later = 1;
    activityHandlers(record, unseen)['activity.seen']();
    expect(unseen.unseen()).toBe(0);
    expect(heard.at(-1)).toBe(0);
  });
});
