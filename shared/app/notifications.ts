import { z } from 'zod';
import { Timestamp } from '../api/values/common.ts';
import { TunnelSession } from '../api/kinds/tunnel-sessions.ts';
import { MonitorEvent, profileEvent } from './monitor.ts';

/*
 * The notification policy's inputs and outputs, as plain JSON for the IPC contract: the
 * preferences a person sets, what is shown, and the policy's memory between two calls.
 */

/** The switches a person has, one per kind of notification. */
export const NOTIFY_KINDS = [
  'offline',
  'restarted',
  'updated',
  'apiHealth',
  'certificateExpiry',
  'drift',
] as const;
const NotifyKind = z.enum(NOTIFY_KINDS);
export type NotifyKind = z.output<typeof NotifyKind>;

/**
 * What a notification is about: a switch's kind, or one the alert rules add (an agent back after
 * its offline was told, an agent behind its major's newest version, the summary after quiet hours).
 */
export const NoticeKind = z.enum([...NOTIFY_KINDS, 'backOnline', 'behindVersion', 'quietSummary']);
export type NoticeKind = z.output<typeof NoticeKind>;

const NotifyPrefs = z.object({
  kinds: z.object({
    offline: z.boolean(),
    restarted: z.boolean(),
    updated: z.boolean(),
    apiHealth: z.boolean(),
    certificateExpiry: z.boolean(),
    drift: z.boolean(),
  } satisfies Record<NotifyKind, z.ZodBoolean>),
  /** agentKey()s whose notifications are not shown. */
  mutedAgents: z.array(z.string()),
  /** Epoch ms; nothing is shown before it. */
  doNotDisturbUntil: z.number().nullable(),
});
export type NotifyPrefs = z.output<typeof NotifyPrefs>;

/** Emitted by the SSH module when a certificate nears its end. */
const CertificateExpiring = z.object({
  kind: z.literal('certificate-expiring'),
  certId: z.string(),
  name: z.string(),
  expiresAt: Timestamp,
  at: z.number(),
  /** The profile whose CA signed it, whose alert rules apply; absent for a fixed client. */
  profileId: z.string().optional(),
  /** Set when the profile's lead-time rule told it (days); absent for the renewal reminder. */
  leadDays: z.int().optional(),
});
export type CertificateExpiring = z.output<typeof CertificateExpiring>;

/** An agent whose offline was told is listed again (alert rules: back online). */
const BackOnline = z.object({
  kind: z.literal('back-online'),
  ...profileEvent,
  session: TunnelSession,
});

/** Agents behind the newest version of their major the account has (alert rules). */
const BehindVersion = z.object({
  kind: z.literal('behind-version'),
  ...profileEvent,
  newest: z.string(),
  sessions: z.array(TunnelSession).min(1),
});

/** A watched account changed outside Burrow (drift watch), told once per drift. */
const DriftFound = z.object({
  kind: z.literal('drift-found'),
  ...profileEvent,
  driftId: z.string(),
  /** "1 edge updated, 2 IP policies created". */
  summary: z.string(),
});

const NotifyInput = z.union([
  MonitorEvent,
  CertificateExpiring,
  BackOnline,
  BehindVersion,
  DriftFound,
]);
export type NotifyInput = z.output<typeof NotifyInput>;

/** What clicking a notification opens. */
export const NotificationTarget = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), profileId: z.string(), sessionId: z.string() }),
  /** An agent's detail (see shared/app/agents.ts). */
  z.object({ type: z.literal('agent'), profileId: z.string(), agentId: z.string() }),
  /** A group of agents: the profile's Sessions screen. */
  z.object({ type: z.literal('sessions'), profileId: z.string() }),
  z.object({ type: z.literal('profile'), profileId: z.string() }),
  z.object({ type: z.literal('certificate'), certId: z.string() }),
  /** A watched account changed: the Drift screen with that profile pointed out. */
  z.object({ type: z.literal('drift'), profileId: z.string() }),
]);
export type NotificationTarget = z.output<typeof NotificationTarget>;

/**
 * What a notification offers besides its click, as buttons where the OS has them (macOS): open
 * what it is about, restart the agent, mute it. Elsewhere the click opens.
 */
const NotificationAction = z.enum(['open', 'restart', 'mute']);
export type NotificationAction = z.output<typeof NotificationAction>;
export const NOTIFICATION_ACTIONS = {
  open: 'Open',
  restart: 'Restart',
  mute: 'Mute this agent',
} as const satisfies Record<NotificationAction, string>;

export const Notification = z.object({
  id: z.string(),
  kind: NoticeKind,
  title: z.string(),
  body: z.string(),
  target: NotificationTarget,
  actions: z.array(NotificationAction),
  /** How it reads: a problem (an agent or an API gone), good news (back), or neither. */
  tone: z.enum(['problem', 'good', 'info']).optional(),
  /** The one agent it is about, for its actions: its session then, and what muting goes by. */
  agent: z
    .object({ profileId: z.string(), sessionId: z.string(), agentKey: z.string() })
    .optional(),
  /**
   * What the activity record keeps of it, where that differs from its title and body: Activity
   * names the profile in a column of its own, and gives each entry its moment the way the
   * window gives every moment, so these words have neither the profile's name nor a clock time.
   */
  record: z.object({ title: z.string(), detail: z.string() }).optional(),
});
export type Notification = z.output<typeof Notification>;

/** When each agent, profile or certificate was last notified of (epoch ms). */
export const NotifyState = z.object({ lastShown: z.record(z.string(), z.number()) });
export type NotifyState = z.output<typeof NotifyState>;

export const INITIAL_NOTIFY_STATE: NotifyState = { lastShown: {} };
