import { z } from 'zod';
import { TunnelSession } from '../../api/kinds/tunnel-sessions.ts';
import { SESSION_ACTIONS } from './rules.ts';

/*
 * What a session action reports, as plain JSON for the IPC contract: its result, and its
 * progress while it runs ("update and restart" takes more than ten seconds).
 */

export const SessionActionName = z.enum(SESSION_ACTIONS);

/** Which step failed; `check` is a rule that refused the action before any call. */
const ActionStep = z.enum(['check', 'update', 'wait', 'restart', 'stop', 'find']);
export type ActionStep = z.output<typeof ActionStep>;

const subject = { action: SessionActionName, profileId: z.string(), sessionId: z.string() };

export const ActionResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    ...subject,
    /** update-and-restart: the agent's new session, and what it runs. */
    successor: TunnelSession.optional(),
    version: z.object({ before: z.string(), after: z.string() }).optional(),
    /** update-and-restart when the agent came back on its old version: why, for a person. */
    note: z.string().optional(),
  }),
  z.object({
    ok: z.literal(false),
    ...subject,
    step: ActionStep,
    reason: z.string(),
    errorCode: z.string().nullable(),
    operationId: z.string().nullable(),
  }),
]);
export type ActionResult = z.output<typeof ActionResult>;

export const ActionEvent = z.discriminatedUnion('phase', [
  z.object({
    phase: z.literal('sent'),
    ...subject,
    command: z.enum(['restart', 'stop', 'update']),
  }),
  z.object({ phase: z.literal('waiting'), ...subject, ms: z.number() }),
  z.object({ phase: z.literal('finding'), ...subject }),
  z.object({
    phase: z.literal('done'),
    ...subject,
    /** The agent as a person calls it (its name, else where it runs), for the words of the outcome. */
    agent: z.string(),
    result: ActionResult,
    /** Part of a bulk action or a rolling update, which says the outcome of all at once. */
    grouped: z.boolean().optional(),
  }),
]);
export type ActionEvent = z.output<typeof ActionEvent>;
