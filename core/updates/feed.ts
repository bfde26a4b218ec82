import { fetch, type Dispatcher, type Response } from 'undici';
import { AppError } from '../errors.ts';
import { parseVersion } from './versions.ts';

/*
 * The update feed as electron-builder publishes it (the generic provider's layout, which GitHub
 * releases share): a `latest*.yml` beside the installers, naming the newest version and each
 * file's sha512 (base64) and size.
 */

/** A version the feed offers, with the one file to download for this platform. */
export type Release = {
  readonly version: string;
  /** Absolute, resolved against the feed's address. */
  readonly url: string;
  readonly fileName: string;
  /** Base64, as electron-builder writes it. */
  readonly sha512: string;
  readonly size: number | null;
};

/** The feed's file for a platform and architecture, as electron-builder names it. */
export function channelFile(platform: NodeJS.Platform, arch: string): string {
  if (platform === 'darwin') return 'latest-mac.yml';
  if (platform === 'win32') return 'latest.yml';
  return arch === 'x64' ? 'latest-linux.yml' : `latest-linux-${arch}.yml`;
}

const unquote = (value: string) => value.trim().replace(/^(['"])(.*)\1$/, '$2');

/**
 * The few fields of a `latest*.yml` the update needs: top-level `key: value` lines and the
 * `files:` list. electron-builder writes this one flat shape; a YAML library for it would only
 * weigh in the package.
 */
function readYaml(text: string): { top: Record<string, string>; files: Record<string, string>[] } {
  const top: Record<string, string> = {};
  const files: Record<string, string>[] = [];
  let inFiles = false;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = /^\s+-\s+(\w+):\s*(.*)$/.exec(line);
    const nested = /^\s+(\w+):\s*(.*)$/.exec(line);
    const flat = /^(\w+):\s*(.*)$/.exec(line);
    if (inFiles && item) files.push({ [item[1]!]: unquote(item[2]!) });
    else if (inFiles && nested && files.length > 0) files.at(-1)![nested[1]!] = unquote(nested[2]!);
    else if (flat) {
      inFiles = flat[1] === 'files';
      top[flat[1]!] = unquote(flat[2]!);
    }
  }
  return { top, files };
}

const SHA512_BASE64 = /^[A-Za-z0-9+/]{86}==$/;

function bad(name: string, message: string): AppError {
  return new AppError('UPDATE_BAD_FEED', `${name}: ${message}`, name);
}

/** The release a feed file names; every field checked, in words naming it. */
export function parseRelease(text: string, feedFileUrl: string, name: string): Release {
  const { top, files } = readYaml(text);
  if (!top.version) throw bad(name, 'version is missing');
  parseVersion(top.version, `${name}: version`);
  const file = files[0] ?? (top.path ? { url: top.path, sha512: top.sha512 ?? '' } : undefined);
  if (!file?.url) throw bad(name, 'files[0].url is missing');
  const sha512 = file.sha512 ?? '';
  if (!SHA512_BASE64.test(sha512)) throw bad(name, 'files[0].sha512 must be a base64 sha512');
  const size = file.size === undefined ? null : Number(file.size);
  if (size !== null && !(Number.isSafeInteger(size) && size >= 0))
    throw bad(name, 'files[0].size must be a whole number of bytes');
  let url: URL;
  try {
    url = new URL(file.url, feedFileUrl);
  } catch {
    throw bad(name, `files[0].url ${JSON.stringify(file.url)} is not an address`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw bad(name, 'files[0].url must be an http(s) address');
  const fileName = decodeURIComponent(url.pathname.split('/').at(-1) ?? '');
  if (!/^[\w.+-]+$/.test(fileName)) throw bad(name, 'files[0].url must end in a file name');
  return { version: top.version, url: url.href, fileName, sha512, size };
}

/**
 * The feed's address from the `app-update.yml` electron-builder writes beside the packaged app
 * (from electron-builder.yml's `publish`): a generic provider's `url`, or a GitHub repository's
 * latest release, whose files GitHub serves under one address.
 */
export function feedUrlOf(appUpdateYml: string): string {
  const { top } = readYaml(appUpdateYml);
  const name = 'app-update.yml';
  if (top.provider === 'generic' && top.url) return top.url;
  if (top.provider === 'github' && top.owner && top.repo)
    return `https://github.com/${top.owner}/${top.repo}/releases/latest/download/`;
  throw bad(name, 'provider must be generic (with a url) or github (with owner and repo)');
}

/** Reads the feed's newest release; an unreachable feed or a bad file rejects in words. */
export async function readFeed(
  feedUrl: string,
  file: string,
  dispatcher?: Dispatcher,
): Promise<Release> {
  const address = new URL(file, feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`).href;
  let response: Response;
  try {
    response = await fetch(address, { redirect: 'follow', ...(dispatcher && { dispatcher }) });
  } catch (error) {
    throw new AppError(
      'UPDATE_FEED_UNREACHABLE',
      `The update feed cannot be reached: ${reason(error)}`,
    );
  }
  if (!response.ok)
    throw new AppError(
      'UPDATE_FEED_UNREACHABLE',
      `The update feed answered ${response.status} for ${file}`,
    );
  return parseRelease(await response.text(), address, file);
}

export function reason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return [error instanceof Error ? error.message : String(error), cause].filter(Boolean).join(': ');
}
