import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * An update feed as electron-builder publishes one (the generic provider's layout), served over
 * loopback HTTP: `latest-linux.yml` naming a version, and its payload. What it serves is changed
 * between requests; `drop` cuts the payload's connection midway once.
 */

export type FeedServer = {
  readonly url: string;
  /** The version the feed names, the payload it serves and the sha512 it claims for it. */
  publish(version: string, payload: Buffer, claimedSha512?: string): void;
  /** The next payload request gets half the bytes, then the connection is destroyed. */
  dropNextDownload(): void;
  /** Requests so far, by path. */
  readonly requests: string[];
  close(): Promise<void>;
};

export const sha512Of = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

export async function startFeedServer(): Promise<FeedServer> {
  let release: { version: string; payload: Buffer; sha512: string } = {
    version: '0.0.0',
    payload: Buffer.alloc(0),
    sha512: sha512Of(Buffer.alloc(0)),
  };
  let drop = false;
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '/';
    requests.push(url);
    const file = `Burrow-${release.version}.AppImage`;
    if (url === '/latest-linux.yml') {
      response.setHeader('content-type', 'text/yaml');
      response.end(
        [
          `version: ${release.version}`,
          'files:',
          `  - url: ${file}`,
          `    sha512: ${release.sha512}`,
          `    size: ${release.payload.length}`,
          `path: ${file}`,
          `sha512: ${release.sha512}`,
          "releaseDate: '2026-11-26T10:00:00.000Z'",
          '',
        ].join('\n'),
      );
    } else if (url === `/${file}`) {
      response.setHeader('content-length', release.payload.length);
      if (drop) {
        drop = false;
        response.write(release.payload.subarray(0, release.payload.length >> 1), () =>
          response.destroy(),
        );
        return;
      }
      response.end(release.payload);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    publish(version, payload, claimedSha512 = sha512Of(payload)) {
      release = { version, payload, sha512: claimedSha512 };
    },
    dropNextDownload: () => void (drop = true),
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
