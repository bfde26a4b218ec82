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
export const NotificationKinds = kinds(() => z.boolean().default(true));

/** How many agents can be muted; `sessions.mute` says so beyond it. */
export const MAX_MUTED_AGENTS = 1000;

export const Theme = z.enum(['system', 'light', 'dark']);

/** A small account is polled this often: an agent gone is said within seconds. */
export const DEFAULT_POLL_SECONDS = 5;
/**
 * The default before it: settings are stored whole, so a stored 15 is what everyone who never
 * chose has, and it reads as the new default.
 */
export const FORMER_DEFAULT_POLL_SECONDS = 15;

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
});
export type SettingsPatch = z.input<typeof SettingsPatch>;

export const settingsCalls = {
  'settings.get': { args: z.tuple([]), result: Settings },
  'settings.update': { args: z.tuple([SettingsPatch]), result: Settings },
} as const;

export const settingsEvents = { 'settings.changed': Settings } as const;
