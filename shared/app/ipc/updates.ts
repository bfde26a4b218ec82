import { z } from 'zod';

/*
 * Burrow's own updates as Settings → Updates and the tray see them. Core decides (when to check,
 * what is newer, what to say); nothing installs without the person: the "Restart to update"
 * click, or quitting once an update is ready.
 */

const UpdatePhase = z.enum([
  /** No updater here (browser mode, or running from the sources): `message` says why. */
  'unavailable',
  'idle',
  'checking',
  /** A newer version is offered and not downloaded (downloading automatically is off). */
  'available',
  'downloading',
  /** Downloaded and its sha512 checked: installs on the person's click or when Burrow quits. */
  'ready',
]);
export type UpdatePhase = z.output<typeof UpdatePhase>;

const UpdateCheck = z.object({
  /** RFC 3339. */
  at: z.string(),
  /** What it found, in words ("Burrow is up to date (1.4.0)", "The download was refused: …"). */
  result: z.string(),
  /** True when the check or its download failed. */
  failed: z.boolean(),
});
export type UpdateCheck = z.output<typeof UpdateCheck>;

const UpdateState = z.object({
  phase: UpdatePhase,
  /** The running version. */
  current: z.string(),
  /** The newer version offered, downloading or ready; null when none. */
  offered: z.string().nullable(),
  /** What to say now, in one line. */
  message: z.string(),
  lastCheck: UpdateCheck.nullable(),
  /** RFC 3339, or null when nothing is scheduled. */
  nextCheckAt: z.string().nullable(),
});
export type UpdateState = z.output<typeof UpdateState>;

export const updateCalls = {
  'updates.state': { args: z.tuple([]), result: UpdateState },
  /** Checks the feed now (and downloads when downloading automatically is on). */
  'updates.check': { args: z.tuple([]), result: UpdateState },
  /** Downloads the offered version (when downloading automatically is off). */
  'updates.download': { args: z.tuple([]), result: UpdateState },
  /** The person's consent: quits and installs the ready update. */
  'updates.install': { args: z.tuple([]), result: UpdateState },
} as const;

export const updateEvents = { 'updates.changed': UpdateState } as const;
