import type { AbuseReportHostname } from '../../shared/api/kinds/abuse-reports.ts';
import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { AbuseReportRecord } from '../store/records.ts';
import type { Ctx, Handler } from './context.ts';
import { mustGet, newDescribed } from './crud.ts';
import { describedFields, storedFields } from './render.ts';

function render(record: AbuseReportRecord, base: string) {
  return {
    ...describedFields(record, base),
    ...storedFields(record, ['urls', 'status', 'hostnames']),
  };
}

/** One entry per distinct hostname, in the order the URLs name them. */
function hostnamesOf(urls: readonly string[]): AbuseReportHostname[] {
  const names = new Set(urls.map((url) => new URL(url).hostname.toLowerCase()));
  return [...names].map((hostname) => ({ hostname, status: 'PENDING' }));
}

export const abuseReportHandlers: Record<string, Handler> = {
  'abuseReports.create': (ctx: Ctx) => {
    if (!ctx.account.abuseReports)
      throw new SandboxApiError(
        'abuseReportsNotEnabled',
        'this account may not file abuse reports',
      );
    const body = ctx.body as ParsedBodyOf<'abuseReports.create'>;
    const record: AbuseReportRecord = {
      ...newDescribed('abuseReport', { metadata: body.metadata }),
      urls: body.urls,
      status: 'PENDING',
      hostnames: hostnamesOf(body.urls),
    };
    ctx.account.collections.abuseReport.insert(record);
    ctx.services.abuseReview.submitted(ctx.account.name, record.id);
    return render(record, ctx.base);
  },
  'abuseReports.get': (ctx: Ctx) =>
    render(mustGet(ctx.account, 'abuseReport', ctx.params['id'] ?? ''), ctx.base),
};
