import { compareVersions, readVersion, type Version } from '../../shared/app/versions.ts';
import { AppError } from '../errors.ts';

/*
 * Versions as the feed and the app write them (1.4.0, 1.5.0-beta.2). Only a strictly newer
 * version is ever offered: the same or an older one is nothing, so a feed rolled back (or one
 * serving an old file) never downgrades anyone.
 */

export function parseVersion(text: string, field = 'version'): Version {
  const version = readVersion(text);
  if (!version)
    throw new AppError('UPDATE_BAD_VERSION', `${field} must be a version like 1.4.0`, field);
  return version;
}

export const isNewer = (offered: string, current: string) => compareVersions(offered, current) > 0;
