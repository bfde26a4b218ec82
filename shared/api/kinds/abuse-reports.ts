import { z } from 'zod';
import { Metadata, resourceFields } from '../values/common.ts';
import { rule } from '../errors/rules.ts';

export const ABUSE_REPORT_STATUSES = ['PENDING', 'PROCESSED', 'PARTIALLY_PROCESSED'] as const;
export const ABUSE_REPORT_HOSTNAME_STATUSES = ['PENDING', 'BANNED', 'UNBANNED', 'IGNORE'] as const;

const AbuseReportHostname = z.looseObject({
  hostname: z.string(),
  status: z.enum(ABUSE_REPORT_HOSTNAME_STATUSES),
});
export type AbuseReportHostname = z.output<typeof AbuseReportHostname>;

// A report has no description.
const { id, uri, created_at, metadata } = resourceFields('abuseReport');

export const AbuseReport = z.looseObject({
  id,
  uri,
  created_at,
  metadata,
  urls: z.array(z.string()),
  status: z.enum(ABUSE_REPORT_STATUSES),
  hostnames: z.array(AbuseReportHostname),
});
export type AbuseReport = z.output<typeof AbuseReport>;

function isHttpUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const AbuseUrl = z
  .string()
  .refine(isHttpUrl, rule('abuseReportUrl', 'must be an http or https URL'));

export const AbuseReportCreate = z.strictObject({
  urls: z.array(AbuseUrl).min(1),
  metadata: Metadata.optional(),
});
export type AbuseReportCreate = z.input<typeof AbuseReportCreate>;
