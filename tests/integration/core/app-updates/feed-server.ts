import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { RequestListener, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import { feedSource } from '../../../../core/app-updates/engine.ts';

/*
 * An update feed as electron-builder publishes one (the generic provider's layout), served over
 * loopback HTTPS: `latest-linux.yml` naming a version, and its payload. What it serves is changed
 * between requests; `drop` cuts the payload's connection midway once. Its certificate is made for
 * the run and trusted by `dispatcher` alone: updates come over https only.
 */

export type FeedServer = {
  readonly url: string;
  /** Connections that trust this feed's certificate (and no other). */
  readonly dispatcher: Dispatcher;
  /** The version the feed names, the payload it serves and the sha512 it claims for it. */
  publish(version: string, payload: Buffer, claimedSha512?: string): void;
  /** The next payload request gets half the bytes, then the connection is destroyed. */
  dropNextDownload(): void;
  /** Answers `path` with `listener` instead, until called again for it without one. */
  handle(path: string, listener?: RequestListener): void;
  /** Requests so far, by path. */
  readonly requests: string[];
  close(): Promise<void>;
};

/** The update engine's source on `feed`, as a Linux x64 machine reads it, downloading into `dir`. */
export function linuxSource(feed: FeedServer, dir: string) {
  return feedSource({
    feedUrl: feed.url,
    dispatcher: feed.dispatcher,
    dir,
    platform: 'linux',
    arch: 'x64',
  });
}

export const sha512Of = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** The `latest-linux.yml` electron-builder writes for a version whose file is `payload`. */
export function latestYml(version: string, payload: Buffer, sha512 = sha512Of(payload)): string {
  const file = `Burrow-${version}.AppImage`;
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${sha512}`,
    `    size: ${payload.length}`,
    `path: ${file}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-11-26T10:00:00.000Z'",
    '',
  ].join('\n');
}

/**
 * Sends `head`, then filler up to `total` bytes, as fast as the client takes them. Resolves true
 * once all of it went, false when the client hung up first.
 */
export function pour(response: ServerResponse, head: Buffer, total: number): Promise<boolean> {
  const filler = Buffer.alloc(64 * 1024, '#');
  let sent = 0;
  const more = () => {
    while (sent < total) {
      const chunk = sent === 0 ? head : filler.subarray(0, Math.min(filler.length, total - sent));
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    response.end();
  };
  more();
  return new Promise((resolve) => response.once('close', () => resolve(response.writableFinished)));
}

/** Sends `head` and then nothing, holding the connection; resolves when the client hangs up. */
export function hold(response: ServerResponse, head: Buffer): Promise<void> {
  response.write(head);
  return new Promise((resolve) => response.once('close', resolve));
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl for this run only. */
function throwawayCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'burrow-feed-tls-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-nodes', '-days', '1', '-subj', '/CN=Burrow test feed'],
        ...['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
        ...['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
        ...['-keyout', key, '-out', cert],
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFeedServer(): Promise<FeedServer> {
  let release: { version: string; payload: Buffer; sha512: string } = {
    version: '0.0.0',
    payload: Buffer.alloc(0),
    sha512: sha512Of(Buffer.alloc(0)),
  };
  let drop = false;
  const requests: string[] = [];
  const handlers = new Map<string, RequestListener>();
  const tls = throwawayCertificate();
  const server: Server = createServer(tls, (request, response) => {
    const url = request.url ?? '/';
    requests.push(url);
    const file = `Burrow-${release.version}.AppImage`;
    const handler = handlers.get(url);
    if (handler) handler(request, response);
    else if (url === '/latest-linux.yml') {
      response.setHeader('content-type', 'text/yaml');
      response.end(latestYml(release.version, release.payload, release.sha512));
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
  const dispatcher = new Agent({ connect: { ca: tls.cert } });
  return {
    url: `https://127.0.0.1:${port}/`,
    dispatcher,
    publish(version, payload, claimedSha512 = sha512Of(payload)) {
      release = { version, payload, sha512: claimedSha512 };
    },
    dropNextDownload: () => void (drop = true),
    handle(path, listener) {
      if (listener) handlers.set(path, listener);
      else handlers.delete(path);
    },
    requests,
    close: async () => {
      await dispatcher.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
