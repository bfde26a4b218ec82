import { getPath, secretPaths, withPath, withoutPath } from './fields.ts';
import { isPlainObject } from '../../shared/api/validate.ts';

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

/** `document`'s module with the secrets it lacks taken from the account's own module, where it has them. */
export function fillSecretsFrom(document: Json, target: Json | undefined): Json {
  if (target === undefined) return document;
  let out = document;
  for (const path of secretPaths(document)) {
    const own = getPath(target, path);
    const holder = getPath(out, path.slice(0, -1));
    if (!isPlainObject(holder) || holder[path.at(-1) ?? ''] !== undefined || own === undefined)
      continue;
    out = withPath(out, path, own);
  }
  return out;
}
