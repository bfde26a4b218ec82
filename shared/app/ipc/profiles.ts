import { z } from 'zod';
import { isLoopbackHost } from '../../api/values/loopback-address.ts';

/*
 * Profiles as the renderer sees them: a name and an address, never a key. The key goes one way
 * only, renderer → core, inside `profiles.add`, `profiles.changeKey` and `profiles.changeAddress`,
 * and is never answered.
 */

export const ProfileId = z.string().regex(/^prf_[A-Za-z0-9]{8,32}$/, 'must be a profile id');

const ProfileName = z
  .string()
  .trim()
  .min(1, 'Give the profile a name')
  .max(64, 'A name has at most 64 characters');

/** https anywhere, plain http only to this machine: the key must not cross a network in clear. */
const ProfileBaseUrl = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      ctx.addIssue({ code: 'custom', message: 'Enter an address such as https://api.example.com' });
    } else if (url.username || url.password || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: 'The address takes no user, query or fragment' });
    } else if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'Use https: plain http is allowed only to this machine (127.0.0.1, ::1, localhost)',
      });
    }
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** A pasted key keeps no surrounding blanks; inside, a blank or control character is a mistake. */
const ApiKeyInput = z
  .string()
  .trim()
  .min(1, 'Paste the API key')
  .max(1024, 'That is too long for an API key')
  .regex(/^[\x21-\x7e]+$/, 'An API key has no spaces, line breaks or other special characters');

const ProfileKind = z.enum(['remote', 'local']);

export const Profile = z.object({
  id: ProfileId,
  name: ProfileName,
  /** For the Local sandbox, the address it listens on while it runs (empty while stopped). */
  baseUrl: z.string(),
  kind: ProfileKind,
});
export type Profile = z.infer<typeof Profile>;

export const ProfileDraft = z.strictObject({
  name: ProfileName,
  baseUrl: ProfileBaseUrl,
  apiKey: ApiKeyInput,
});
export type ProfileDraft = z.input<typeof ProfileDraft>;

/** A profile's new address, with the key kept or a new one for it; tried there before saving. */
export const AddressChange = z.strictObject({
  baseUrl: ProfileBaseUrl,
  apiKey: ApiKeyInput.optional(),
});
export type AddressChange = z.input<typeof AddressChange>;

const KeychainStatus = z.object({
  available: z.boolean(),
  /** Why not, in words a person can act on; absent when available. */
  message: z.string().optional(),
});
export type KeychainStatus = z.infer<typeof KeychainStatus>;

const LocalSandboxStatus = z.object({
  state: z.enum(['absent', 'starting', 'running', 'failed', 'stopped']),
  message: z.string().optional(),
});
export type LocalSandboxStatus = z.infer<typeof LocalSandboxStatus>;

/** A settings.json Burrow could not read at start-up: set aside, and what was recovered. */
const DamagedSettings = z.object({
  /** Where the old file is now. */
  file: z.string(),
  /** What happened and where the old file is, in one sentence for a person. */
  message: z.string(),
});
export type DamagedSettings = z.infer<typeof DamagedSettings>;

const ProfilesState = z.object({
  profiles: z.array(Profile),
  activeId: ProfileId.nullable(),
  keychain: KeychainStatus,
  local: LocalSandboxStatus,
  /** Present for the whole run that started on a damaged settings.json. */
  damagedSettings: DamagedSettings.optional(),
});
export type ProfilesState = z.infer<typeof ProfilesState>;

export const profileCalls = {
  'profiles.state': { args: z.tuple([]), result: ProfilesState },
  /** Tries the key against the address first; nothing is saved unless the API accepts it. */
  'profiles.add': { args: z.tuple([ProfileDraft]), result: Profile },
  'profiles.rename': { args: z.tuple([ProfileId, ProfileName]), result: Profile },
  'profiles.changeKey': { args: z.tuple([ProfileId, ApiKeyInput]), result: Profile },
  'profiles.changeAddress': { args: z.tuple([ProfileId, AddressChange]), result: Profile },
  'profiles.switch': { args: z.tuple([ProfileId]), result: ProfilesState },
  'profiles.remove': { args: z.tuple([ProfileId]), result: ProfilesState },
  /** Creates (or re-creates) the Local sandbox profile, active, and starts it in the background. */
  'profiles.createLocal': { args: z.tuple([]), result: Profile },
} as const;

export const profileEvents = { 'profiles.changed': ProfilesState } as const;
