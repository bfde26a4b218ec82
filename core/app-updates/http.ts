import { request, type Dispatcher } from 'undici';
import { AppError } from '../errors.ts';

/*
 * How every update read goes out, the feed file and the download alike. The sha512 that vouches
 * for a download comes in the feed, so the feed is trusted no further than its transport:
 *
 * - https only, from the first address to the last: a redirect to plain http is not followed;
 * - a redirect is followed only on the feed's own host, or on the host where the feed's provider
 *   documents that it serves the files (GitHub's, for a feed on github.com); never elsewhere;
 * - at most MAX_REDIRECTS of them;
 * - a body is read only up to the bytes the caller expects (core/body-up-to.ts), then the
 *   connection is dropped;
 * - every read stops when the caller's signal fires: the update service's deadline.
 */

/** Where GitHub serves a release's files: its download links on github.com redirect there. */
const GITHUB_FILE_HOSTS = ['release-assets.githubusercontent.com', 'objects.githubusercontent.com'];

const MAX_REDIRECTS = 5;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The hosts a feed's reads may reach: its own, and for a feed on GitHub, GitHub's file hosts. */
export function feedHosts(feed: URL): readonly string[] {
  return feed.host === 'github.com' ? [feed.host, ...GITHUB_FILE_HOSTS] : [feed.host];
}

export type ReadOptions = {
  /** Names the read in what is said: "The update feed", "The download of Burrow 1.5.0". */
  readonly what: string;
  readonly hosts: readonly string[];
  readonly signal: AbortSignal;
  /** How connections are made: the system's trust unless a test brings its own. */
  readonly dispatcher: Dispatcher | undefined;
  /** The error an answer other than 2xx is, once its body is dropped. */
  readonly notOk: (statusCode: number) => Error;
};

function refused(message: string): AppError {
  return new AppError('UPDATE_REFUSED', message);
}

/**
 * The 2xx answer at `address`, after the redirects the rules above allow (a refused one throws
 * `UPDATE_REFUSED` without a request to it); any other status throws `notOk`'s error.
 */
export async function openRead(
  address: string,
  options: ReadOptions,
): Promise<Dispatcher.ResponseData> {
  const { what, hosts, signal, dispatcher, notOk } = options;
  let url = new URL(address);
  if (url.protocol !== 'https:')
    throw refused(`${what} is at ${url.href}: updates come over https only`);
  for (let redirects = 0; ; redirects += 1) {
    const response = await request(url, { signal, ...(dispatcher && { dispatcher }) });
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string') {
      if (response.statusCode >= 200 && response.statusCode <= 299) return response;
      await response.body.dump();
      throw notOk(response.statusCode);
    }
    await response.body.dump();
    if (redirects === MAX_REDIRECTS)
      throw refused(`${what} redirects more than ${MAX_REDIRECTS} times: not followed`);
    url = new URL(location, url);
    if (url.protocol !== 'https:')
      throw refused(`${what} redirects to ${url.href}: not followed, updates come over https only`);
    if (!hosts.includes(url.host))
      throw refused(
        `${what} redirects to another host (${url.host}): not followed, updates come from ${hosts.join(' or ')} only`,
      );
  }
}
