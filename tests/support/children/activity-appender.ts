/**
 * Another process appending to the activity record, as `burrow` beside the app does:
 * `node dist-test/activity-appender.js DATA_DIR TAG COUNT` (built by scripts/build-test.ts).
 */
import { ActivityRecord } from '../../../core/activity/record.ts';

const [dataDir = '', tag = '', count = '0'] = process.argv.slice(2);
const record = new ActivityRecord(dataDir);
// Long lines: interleaved writes would show as broken JSON.
const detail = `${tag} `.repeat(200);
for (let i = 0; i < Number(count); i++)
  record.append({
    kind: 'action',
    at: Date.now(),
    profileId: 'prf_00000001',
    title: `${tag} ${i}`,
    detail,
    source: 'command line',
    ok: true,
  });
