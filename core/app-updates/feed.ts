import type { Dispatcher } from 'undici';
import { AppError } from '../errors.ts';
import { textUpTo } from '../body-up-to.ts';
import { feedHosts, openRead } from './http.ts';
import { parseVersion } from './versions.ts';

/*
 * The update feed as electron-builder publishes it (the generic provider's layout, which GitHub
 * releases share): a `latest*.yml` beside the installers, naming the newest version and each
 * file's sha512 (base64) and size.
 */

/** A version the feed offers, with the one file to download for this platform. */
export type Release = {
  readonly version: string;
  /** Absolute, resolved against the feed's address: https, on a host the feed may use. */
  readonly url: string;
  readonly fileName: string;
  /** Base64, as electron-builder writes it. */
  readonly sha512: string;
  /** Bytes: the download stops here. */
  readonly size: number;
};

/** A feed file names a version and a few files: anything larger is not one, and is not read. */
const MAX_FEED_BYTES = 1024 * 1024;

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
  const file = files[0];
  if (!file?.url) throw bad(name, 'files[0].url is missing');
  const sha512 = file.sha512 ?? '';
  if (!SHA512_BASE64.test(sha512)) throw bad(name, 'files[0].sha512 must be a base64 sha512');
  // Without a size, nothing would bound the download: electron-builder always writes one.
  if (file.size === undefined) throw bad(name, 'files[0].size is missing');
  const size = Number(file.size);
  if (!(Number.isSafeInteger(size) && size >= 0))
    throw bad(name, 'files[0].size must be a whole number of bytes');
  let url: URL;
  try {
    url = new URL(file.url, feedFileUrl);
  } catch {
    throw bad(name, `files[0].url ${JSON.stringify(file.url)} is not an address`);
  }
  if (url.protocol !== 'https:') throw bad(name, 'files[0].url must be an https address');
  const hosts = feedHosts(new URL(feedFileUrl));
  if (!hosts.includes(url.host))
    throw bad(name, `files[0].url must be on the feed's host (${hosts[0]}), not ${url.host}`);
  const fileName = decodeURIComponent(url.pathname.split('/').at(-1) ?? '');
  if (!/^[\w.+-]+$/.test(fileName)) throw bad(name, 'files[0].url must end in a file name');
  return { version: top.version, url: url.href, fileName, sha512, size };
}

/**
 * The feed's address from the `app-update.yml` electron-builder writes beside the packaged app
 * (from electron-builder.yml's `publish`): a generic provider's `url`, which must be https, or a
 * GitHub repository's latest release, whose files GitHub serves under one address.
 */
export function feedUrlOf(appUpdateYml: string): string {
  const { top } = readYaml(appUpdateYml);
  const name = 'app-update.yml';
  if (top.provider === 'generic' && top.url) {
    if (!URL.canParse(top.url) || new URL(top.url).protocol !== 'https:')
      throw bad(name, 'url must be an https address');
    return top.url;
  }
  if (top.provider === 'github' && top.owner && top.repo)
    return `https://github.com/${top.owner}/${top.repo}/releases/latest/download/`;
  throw bad(name, 'provider must be generic (with a url) or github (with owner and repo)');
}

/**
 * Reads the feed's newest release, by the rules of core/app-updates/http.ts and no more than
 * MAX_FEED_BYTES of it; an unreachable feed or a bad file rejects in words.
 */
export async function readFeed(
  feedUrl: string,
  file: string,
  options: { readonly signal: AbortSignal; readonly dispatcher?: Dispatcher | undefined },
): Promise<Release> {
  const address = new URL(file, feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`);
  let text: string;
  try {
    const response = await openRead(address.href, {
      what: 'The update feed',
      hosts: feedHosts(address),
      signal: options.signal,
      dispatcher: options.dispatcher,
      notOk: (status) =>
        new AppError('UPDATE_FEED_UNREACHABLE', `The update feed answered ${status} for ${file}`),
    });
    const tooLarge = () =>
      new AppError(
        'UPDATE_BAD_FEED',
        `The update feed sends more than ${MAX_FEED_BYTES / 2 ** 20} MiB for ${file}: not read further`,
        file,
      );
    text = await textUpTo(response, MAX_FEED_BYTES, tooLarge);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'UPDATE_FEED_UNREACHABLE',
      `The update feed cannot be reached: ${reason(error)}`,
    );
  }
  return parseRelease(text, address.href, file);
}

export function reason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return [error instanceof Error ? error.message : String(error), cause].filter(Boolean).join(': ');
}
