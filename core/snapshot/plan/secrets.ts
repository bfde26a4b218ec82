import { getPath, secretPaths, withPath, withoutPath } from '../resources/fields.ts';
import { isPlainObject } from '../../../shared/api/errors/validate.ts';

type Json = Record<string, unknown>;

/** Whether the module holding a secret at `path` needs one: SNS and the service's own OAuth app do not. */
function needsSecret(path: readonly string[], holder: Json): boolean {
  if (path[0] === 'webhook_verification') return holder['provider'] !== 'sns';
  if (path[0] === 'oauth') return holder['client_id'] !== null && holder['client_id'] !== undefined;
  return true;
}

/** The secrets `fields` would need to be written, and lack: `oidc.client_secret`, … */
export function missingSecrets(fields: Json): string[] {
  return secretPaths(fields)
    .filter((path) => {
      const holder = getPath(fields, path.slice(0, -1));
      return (
        isPlainObject(holder) &&
        holder[path.at(-1) ?? ''] === undefined &&
        needsSecret(path, holder)
      );
    })
    .map((path) => path.join('.'));
}

/** The fields of a secret's module that say whom the secret is for, by the secret's path. */
function identityOf(path: readonly string[]): readonly string[] {
  if (path[0] === 'oidc') return ['issuer', 'client_id'];
  if (path[0] === 'webhook_verification') return ['provider'];
  // oauth.provider.<name>.client_secret: the provider is in the path itself.
  return ['client_id'];
}

/** Whether the account holds an OAuth secret of another provider than the one at `path`. */
const otherProvider = (target: Json, path: readonly string[]) =>
  secretPaths(target).some(
    (other) => other[0] === 'oauth' && other[2] !== path[2] && getPath(target, other) !== undefined,
  );

/**
 * The field, of those saying whom the secret at `path` is for, that `document` changes from the
 * account's (`provider`, `issuer`, `client_id`); undefined when it is for the same party.
 */
function newOwnerOf(document: Json, target: Json, path: readonly string[]): string | undefined {
  const mine = getPath(document, path.slice(0, -1));
  const theirs = getPath(target, path.slice(0, -1));
  if (!isPlainObject(mine)) return undefined;
  if (!isPlainObject(theirs))
    return path[0] === 'oauth' && otherProvider(target, path) ? 'provider' : undefined;
  return identityOf(path).find(
    (field) => JSON.stringify(mine[field]) !== JSON.stringify(theirs[field]),
  );
}

/** Why the secret at `path` blocks a plan: the snapshot lacks it, and the account's is another party's. */
export function missingSecretReason(
  document: Json,
  target: Json | undefined,
  path: readonly string[],
): string {
  const changed = target === undefined ? undefined : newOwnerOf(document, target, path);
  return changed === undefined
    ? 'secret missing from the snapshot'
    : `needs the secret for the new ${changed}`;
}

/**
 * `target` without the secrets `document` left out, so that a snapshot without secrets compares
 * equal to the account it came from.
 */
export function hideSecretsMissingFrom(document: Json, target: Json): Json {
  return secretPaths(target).reduce(
    (out, path) => (getPath(document, path) === undefined ? withoutPath(out, path) : out),
    target,
  );
}

/**
 * `document`'s module with the secrets it lacks taken from the account's own module, where it
 * has them and they are for the same party: a secret never goes to a new issuer or provider.
 */
export function fillSecretsFrom(document: Json, target: Json | undefined): Json {
  if (target === undefined) return document;
  let out = document;
  for (const path of secretPaths(document)) {
    const own = getPath(target, path);
    const holder = getPath(out, path.slice(0, -1));
    if (!isPlainObject(holder) || holder[path.at(-1) ?? ''] !== undefined || own === undefined)
      continue;
    if (newOwnerOf(document, target, path) === undefined) out = withPath(out, path, own);
  }
  return out;
}
