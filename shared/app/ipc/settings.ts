import { z } from 'zod';
import { NOTIFY_KINDS, type NotifyKind } from '../notifications.ts';

/*
 * The settings a person changes, as one object with a default for every field: a settings file
 * written by an older Burrow, or edited by hand, still loads, and what does not parse falls back
 * to the default instead of stopping the app.
 */

const kinds = <T extends z.ZodType>(field: () => T) =>
  z.object(Object.fromEntries(NOTIFY_KINDS.map((k) => [k, field()])) as Record<NotifyKind, T>);

/** Every kind on unless switched off. */
const NotificationKinds = kinds(() => z.boolean().default(true));

/** How many agents can be muted; `sessions.mute` says so beyond it. */
export const MAX_MUTED_AGENTS = 1000;

const Theme = z.enum(['system', 'light', 'dark']);

/** A small account is polled this often: an agent gone is said within seconds. */
export const DEFAULT_POLL_SECONDS = 5;
/**
 * The default before it: settings are stored whole, so a stored 15 is what everyone who never
 * chose has, and it reads as the new default.
 */
export const FORMER_DEFAULT_POLL_SECONDS = 15;

/** "Offline for longer than": at once (today's behaviour), or these minutes. Fixed choices. */
export const OFFLINE_AFTER_MINUTES = [0, 1, 5, 15] as const;
const OfflineAfterMinutes = z.union(OFFLINE_AFTER_MINUTES.map((m) => z.literal(m)));

/** A local time of day, "HH:MM" on a 24-hour clock. */
const TimeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day must be HH:MM, 00:00 to 23:59');

/** "Tell a certificate this many days before it expires": 1 to 30. */
export const CERTIFICATE_LEAD_DAYS = { min: 1, max: 30 } as const;

/** One profile's alert rules (docs/alerts.md); a profile without its own has the defaults. */
export const AlertRules = z.strictObject({
  offlineAfterMinutes: OfflineAfterMinutes.default(0),
  /** Tell an agent back online, when its offline was told. */
  backOnline: z.boolean().default(true),
  /** Tell an agent behind the newest version of its major the account has. */
  behindVersion: z.boolean().default(false),
  /**
   * Tell a saved certificate of the profile this many days before it expires, instead of when
   * it is due for renewal; null keeps the renewal reminder (its lead time, or two thirds of its
   * life).
   */
  certificateLeadDays: z
    .int('certificateLeadDays must be a whole number of days')
    .min(CERTIFICATE_LEAD_DAYS.min, 'certificateLeadDays must be 1 to 30 days')
    .max(CERTIFICATE_LEAD_DAYS.max, 'certificateLeadDays must be 1 to 30 days')
    .nullable()
    .default(null),
  /** A daily window, local time, whose notices are held and told as one summary after it. */
  quietHours: z
    .strictObject({ from: TimeOfDay, to: TimeOfDay })
    .refine((w) => w.from !== w.to, 'quiet hours must start and end at different times')
    .nullable()
    .default(null),
});
export type AlertRules = z.output<typeof AlertRules>;

const DEFAULT_ALERT_RULES: AlertRules = AlertRules.parse({});

/** The rules of a profile: its own, or the defaults. */
export function alertRulesOf(settings: Pick<Settings, 'alerts'>, profileId: string): AlertRules {
  return settings.alerts[profileId] ?? DEFAULT_ALERT_RULES;
}

/** Drift watch: how often a watched profile is checked, and the share of its rate limit. */
export const DriftSettings = z.strictObject({
  intervalMinutes: z
    .int('drift.intervalMinutes must be a whole number of minutes')
    .min(5, 'drift.intervalMinutes must be 5 to 1440 minutes')
    .max(1440, 'drift.intervalMinutes must be 5 to 1440 minutes')
    .default(15),
  /** At most this percent of the limit, averaged over an hour, goes to drift checks. */
  budgetPercent: z
    .int('drift.budgetPercent must be a whole percent')
    .min(1, 'drift.budgetPercent must be 1 to 25 percent')
    .max(25, 'drift.budgetPercent must be 1 to 25 percent')
    .default(5),
});
export type DriftSettings = z.output<typeof DriftSettings>;

/** App updates: checked at start and every 6 hours; installed only with the person's consent. */
const UpdateSettings = z.strictObject({
  /** Download a newer version in the background as soon as it is found. */
  autoDownload: z.boolean().default(true),
});
export type UpdateSettings = z.output<typeof UpdateSettings>;

export const Settings = z.object({
  /** How often sessions are polled; the monitor stretches it to stay within its share. */
  pollIntervalSeconds: z.int().min(5).max(3600).default(DEFAULT_POLL_SECONDS),
  notifications: NotificationKinds.default(() => NotificationKinds.parse({})),
  /** Agents whose notifications are muted, by the monitor's agent key. */
  mutedAgents: z
    .array(z.string().max(512))
    .max(MAX_MUTED_AGENTS)
    .default(() => []),
  /** Do not disturb until this time (RFC 3339), or null. */
  doNotDisturbUntil: z.iso.datetime().nullable().default(null),
  theme: Theme.default('system'),
  /** Start Burrow (in the tray) when the person logs in; the desktop shell applies it. */
  launchAtLogin: z.boolean().default(false),
  /** Alert rules by profile id. */
  alerts: z.record(z.string().max(64), AlertRules).default(() => ({})),
  drift: DriftSettings.default(() => DriftSettings.parse({})),
  updates: UpdateSettings.default(() => UpdateSettings.parse({})),
});
export type Settings = z.infer<typeof Settings>;

/** What `settings.update` takes: any subset, each field checked as in Settings. */
export const SettingsPatch = z.strictObject({
  pollIntervalSeconds: Settings.shape.pollIntervalSeconds.unwrap().optional(),
  notifications: kinds(() => z.boolean().optional())
    .strict()
    .optional(),
  mutedAgents: Settings.shape.mutedAgents.unwrap().optional(),
  doNotDisturbUntil: Settings.shape.doNotDisturbUntil.unwrap().optional(),
  theme: Theme.optional(),
  launchAtLogin: z.boolean().optional(),
  /** Each profile named gets these rules whole; other profiles keep theirs. */
  alerts: Settings.shape.alerts.unwrap().optional(),
  drift: DriftSettings.optional(),
  updates: UpdateSettings.optional(),
});
export type SettingsPatch = z.input<typeof SettingsPatch>;

export const settingsCalls = {
  'settings.get': { args: z.tuple([]), result: Settings },
  'settings.update': { args: z.tuple([SettingsPatch]), result: Settings },
} as const;

export const settingsEvents = { 'settings.changed': Settings } as const;
