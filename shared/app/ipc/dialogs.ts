import { z } from 'zod';

/*
 * Native dialogs, reached through the contract so each shell answers in its own way: Electron
 * opens the OS dialog; browser mode cannot pick a path on the server's disk for the person, so it
 * answers `unavailable` and the renderer falls back to a text field (or its own confirmation).
 */

const Title = z.string().trim().min(1).max(200);
const Path = z.string().max(4096);

const FolderRequest = z.strictObject({ title: Title, defaultPath: Path.optional() });
export type FolderRequest = z.output<typeof FolderRequest>;

const SaveFileRequest = z.strictObject({
  title: Title,
  defaultPath: Path.optional(),
  /** Offered extensions without the dot, e.g. ["pub"]. */
  extensions: z
    .array(z.string().regex(/^[A-Za-z0-9]{1,16}$/))
    .max(8)
    .optional(),
});
export type SaveFileRequest = z.output<typeof SaveFileRequest>;

/** A file to read: core asks for it itself (a snapshot to open), so no contract call takes it. */
export type OpenFileRequest = { readonly title: string; readonly extensions?: readonly string[] };

export const ConfirmRequest = z.strictObject({
  title: Title,
  message: z.string().min(1).max(1000),
  /** The button that goes ahead, worded as the action ("Stop session"). */
  confirmLabel: z.string().trim().min(1).max(60),
  /** Shown as the destructive kind where the OS has one. */
  destructive: z.boolean().optional(),
});
export type ConfirmRequest = z.output<typeof ConfirmRequest>;

const Unavailable = z.object({ status: z.literal('unavailable'), reason: z.string() });

const PathChoice = z.discriminatedUnion('status', [
  z.object({ status: z.literal('chosen'), path: z.string() }),
  z.object({ status: z.literal('cancelled') }),
  Unavailable,
]);
export type PathChoice = z.output<typeof PathChoice>;

const Confirmation = z.discriminatedUnion('status', [
  z.object({ status: z.literal('confirmed') }),
  z.object({ status: z.literal('declined') }),
  Unavailable,
]);
export type Confirmation = z.output<typeof Confirmation>;

export const dialogCalls = {
  'dialog.chooseFolder': { args: z.tuple([FolderRequest]), result: PathChoice },
  'dialog.saveFile': { args: z.tuple([SaveFileRequest]), result: PathChoice },
  'dialog.confirm': { args: z.tuple([ConfirmRequest]), result: Confirmation },
} as const;
