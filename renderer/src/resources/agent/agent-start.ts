import type { Profile } from '../../../../shared/app/ipc/profiles.ts';

/** A word the shell takes as it is, quoted only when it needs to be. */
const word = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

/**
 * The command that starts an agent with `token` (binding `binds`), on the Local sandbox only:
 * there the repository's own agent connects to it from this machine. Elsewhere the person's
 * own agent is theirs to start.
 */
export function agentStartCommand(
  profile: Profile | undefined,
  token: string,
  binds: readonly string[] = [],
): string | undefined {
  if (profile?.kind !== 'local') return undefined;
  const bound = binds.map((bind) => ` --bind ${word(bind)}`).join('');
  return `npm run agent -- --api-url ${word(profile.baseUrl)} --authtoken ${word(token)}${bound}`;
}
