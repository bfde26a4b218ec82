import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Profile, ProfileId, type DamagedSettings } from '../../shared/app/ipc/profiles.ts';
import { asideName, jsonOrUndefined } from '../files.ts';

export const SETTINGS_FILE = 'settings.json';

/**
 * A settings.json that is not a JSON object (a hand edit gone wrong, a disk that lost part of
 * it) would stop every shell at start: `conf` and electron-store throw JSON.parse's error, naming
 * no file. So before the store is opened it is set aside beside itself, named and dated, and a
 * new one holds the profiles its text still gives (their keys stay in the keychain under the same
 * ids); everything else starts from its default. Runs before the shell's store is made, hence sync.
 */
export function setAsideDamagedSettings(
  dir: string,
  now = new Date(),
): DamagedSettings | undefined {
  const file = path.join(dir, SETTINGS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return setAside(file, '', reasonOf(error), now);
  }
  const reason = damageOf(text);
  return reason === undefined ? undefined : setAside(file, text, reason, now);
}

function setAside(file: string, text: string, reason: string, now: Date): DamagedSettings {
  const aside = asideName(file, now);
  try {
    renameSync(file, aside);
  } catch (error) {
    throw new Error(
      `${file} could not be read (${reason}) nor set aside (${reasonOf(error)}): move it away ` +
        'and start Burrow again',
      { cause: error },
    );
  }
  const recovered = recoverProfiles(text);
  // Without profiles the key stays unset: the app then makes the Local sandbox as on a first launch.
  if (recovered.profiles.length > 0)
    writeFileSync(file, JSON.stringify(recovered), { mode: 0o600 });
  const count = recovered.profiles.length;
  const kept =
    count === 0
      ? 'no profile could be recovered'
      : `${count} profile${count === 1 ? '' : 's'} recovered`;
  return {
    file: aside,
    message:
      `Burrow could not read ${file} (${reason}): it was set aside as ${aside}, and Burrow ` +
      `started with default settings (${kept})`,
  };
}

/** Why the text is no settings file; undefined when it is one. */
function damageOf(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? undefined
      : 'it holds no JSON object';
  } catch (error) {
    return reasonOf(error);
  }
}

/**
 * Profiles are flat objects, so each `{…}` without braces inside is a candidate: those that read
 * as a whole profile are kept (once per id), wherever the damage is.
 */
function recoverProfiles(text: string): { profiles: Profile[]; activeProfileId?: string } {
  const profiles: Profile[] = [];
  for (const [candidate] of text.matchAll(/\{[^{}]*\}/g)) {
    const parsed = Profile.safeParse(jsonOrUndefined(candidate));
    if (parsed.success && !profiles.some((p) => p.id === parsed.data.id))
      profiles.push(parsed.data);
  }
  const active = ProfileId.safeParse(/"activeProfileId"\s*:\s*"([^"]*)"/.exec(text)?.[1]);
  return active.success && profiles.some((p) => p.id === active.data)
    ? { profiles, activeProfileId: active.data }
    : { profiles };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
