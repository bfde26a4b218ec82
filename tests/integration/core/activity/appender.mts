// A process appending to the activity record: `node --import tsx appender.mts DATA_DIR TAG COUNT`.
import { ActivityRecord } from '../../../../core/activity/record.ts';

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
