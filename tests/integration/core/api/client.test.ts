import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient, type ApiEvent } from '../../../../core/api/client.ts';
import {
  AbortError,
  ApiError,
  InvalidResponseError,
  NetworkError,
  UnsafeUrlError,
} from '../../../../core/api/errors.ts';
import { FakeClock } from '../../../support/fake-clock.ts';

/*
 * The client's request loop against a scripted loopback server: each request takes the next
 * answer of the script (then 204s). The sandbox suites test the same against the real API.
 */
type Answer = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let origin: string;
let script: Answer[] = [];
let requests: string[] = [];
let events: ApiEvent[] = [];
let client: ApiClient;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (_, res) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(body));
const error = (status: number, code: number, headers?: Record<string, string>) =>
  json(
    status,
    {
      error_code: `ERR_SERVICE_${code}`,
      status_code: status,
      msg: `failed ${code}`,
      details: { operation_id: 'op_1' },
    },
    headers,
  );
const drop: Answer = (req) => req.socket.destroy();
const policy = (id: string) => ({
  id,
  uri: `${origin}/ip_policies/${id}`,
  created_at: '2025-01-31T12:00:00Z',
  surprise: 'kept',
});

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      (script.shift() ?? ((_, r) => r.writeHead(204).end()))(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(async () => {
  await client?.close();
  script = [];
  requests = [];
  events = [];
  client = createApiClient({
    baseUrl: origin,
    apiKey: 'k',
    retry: { backoff: { baseMs: 5, maxMs: 20 }, rateLimitBackoff: { baseMs: 5, maxMs: 20 } },
    transport: { responseTimeoutMs: 300 },
    onEvent: (e) => events.push(e),
  });
});

afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const retries = () => events.filter((e) => e.type !== 'budget');

/** A client of its own, on these options, closed once `run` is done. */
async function withClient(
  options: Omit<Parameters<typeof createApiClient>[0], 'baseUrl' | 'apiKey'>,
  run: (own: ApiClient) => Promise<void>,
): Promise<void> {
  const own = createApiClient({ baseUrl: origin, apiKey: 'k', ...options });
  try {
    await run(own);
  } finally {
    await own.close();
  }
}

describe('the client', () => {
  it('retries a 429 on POST until it passes, reporting each wait', async () => {
    script = [error(429, 226), error(429, 226), error(429, 226), json(201, policy('ipp_1'))];
    await expect(client.ipPolicies.create({ description: 'x' })).resolves.toMatchObject({
      id: 'ipp_1',
    });
    expect(requests).toHaveLength(4);
    expect(retries()).toEqual(
      [1, 2, 3].map((attempt) =>
        expect.objectContaining({
          type: 'rate-limited',
          operation: 'ipPolicies.create',
          attempt,
          message: expect.stringMatching(/^Rate limited, retrying in \d+(\.\d)? s$/),
        }),
      ),
    );
  });

  it('goes on when an event listener throws', () =>
    withClient(
      {
        retry: { rateLimitBackoff: { baseMs: 5, maxMs: 20 } },
        onEvent: () => {
          throw new Error('UI bug');
        },
      },
      async (clumsy) => {
        script = [error(429, 226), json(201, policy('ipp_2'))];
        await expect(clumsy.ipPolicies.create({})).resolves.toMatchObject({ id: 'ipp_2' });
      },
    ));

  it('honours Retry-After within its policy, and stops waiting the moment the caller aborts', () =>
    withClient(
      {
        retry: { rateLimitBackoff: { baseMs: 1_000, maxMs: 60_000 } },
        random: () => 0,
        onEvent: (e) => events.push(e),
        // Still: the wait reported is the hint's whole 30 s, not what is left of it once a busy
        // machine has taken a few milliseconds to report it (a loaded run saw 29,997).
        clock: new FakeClock(),
      },
      async (patient) => {
        script = [error(429, 226, { 'retry-after': '30' })];
        const controller = new AbortController();
        const call = patient.ipPolicies.list(undefined, { signal: controller.signal });
        await expect.poll(() => retries()).toHaveLength(1);
        expect(retries()[0]).toMatchObject({
          retryInMs: 30_000,
          message: 'Rate limited, retrying in 30 s',
        });
        controller.abort();
        await expect(call).rejects.toThrow(AbortError);
        await expect(call).rejects.toThrow('Cancelled: ipPolicies.list');
        expect(requests).toHaveLength(1);
      },
    ));

  it('bounds a huge, zero, negative, malformed or far-off Retry-After by its policy', () => {
    // Time moves only from wait to wait: a reported wait is the one drawn, however slow the run.
    const clock = new FakeClock();
    return withClient(
      {
        // Backoffs of 5 to 20 ms; with every draw at 0.5 each wait is known in advance.
        retry: { backoff: { baseMs: 5, maxMs: 20 }, rateLimitBackoff: { baseMs: 5, maxMs: 20 } },
        random: () => 0.5,
        onEvent: (e) => events.push(e),
        clock,
      },
      async (steady) => {
        const after = (value: string) => error(429, 226, { 'retry-after': value });
        script = [
          after('9999999'),
          after('0'),
          after('-5'),
          after('soon'),
          after('Fri, 31 Dec 9999 23:59:59 GMT'),
          json(200, policy('ipp_1')),
        ];
        await expect(clock.runUntil(steady.ipPolicies.get('ipp_1'))).resolves.toMatchObject({
          id: 'ipp_1',
        });
        // Cool-down n draws half of min(20, 5·2ⁿ); a hint is clamped to [5, 20] plus 2 of jitter,
        // and never shortens the draw; the unreadable ones leave the draw alone.
        expect(retries().map((e) => e.retryInMs)).toEqual([22, 7, 10, 10, 22]);
        expect(requests).toHaveLength(6);

        script = [error(503, 341, { 'retry-after': '9999999' }), json(200, policy('ipp_1'))];
        await clock.runUntil(steady.ipPolicies.get('ipp_1'));
        expect(retries().at(-1)).toMatchObject({ type: 'retrying', retryInMs: 22 });
      },
    );
  });

  it('retries GET on 502/503/504 and dropped connections', async () => {
    script = [error(502, 340), error(503, 341), drop, error(504, 336), json(200, policy('ipp_2'))];
    await expect(client.ipPolicies.get('ipp_2')).resolves.toMatchObject({ id: 'ipp_2' });
    expect(requests).toHaveLength(5);
    expect(retries().map((e) => e.type)).toEqual(['retrying', 'retrying', 'retrying', 'retrying']);
  });

  it('gives up on GET after a bounded number of retries', async () => {
    script = Array.from({ length: 10 }, () => error(503, 341));
    await expect(client.ipPolicies.get('ipp_2')).rejects.toThrow(ApiError);
    expect(requests).toHaveLength(5);
  });

  it('retries a call no more than it asks, and still waits out a 429 for it', async () => {
    script = [error(503, 341), error(503, 341)];
    const once = client.call('ipPolicies.get', { params: { id: 'ipp_2' }, maxRetries: 0 });
    await expect(once).rejects.toMatchObject({ status: 503 });
    expect(requests).toHaveLength(1);
    script = [
      error(429, 226),
      json(200, { ip_policies: [], uri: `${origin}/ip_policies`, next_page_uri: null }),
    ];
    const pages = client.pages('ipPolicies.list', { maxRetries: 0, priority: 'background' });
    for await (const page of pages) expect(page.items).toEqual([]);
    expect(requests).toHaveLength(3);
  });

  it('never repeats a POST or PATCH after a 5xx or a dropped connection', async () => {
    script = [error(503, 341)];
    const failed = await client.ipPolicies.create().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({
      status: 503,
      errorCode: 'ERR_SERVICE_341',
      operationId: 'op_1',
    });
    script = [drop];
    await expect(client.ipPolicies.update('ipp_1', {})).rejects.toThrow(NetworkError);
    expect(requests).toHaveLength(2);
    expect(retries()).toEqual([]);
  });

  it('times out a silent service, and says so', async () => {
    script = [() => undefined];
    await expect(client.tunnelSessions.stop('ts_1')).rejects.toThrow(/did not answer in time/);
    expect(requests).toHaveLength(1);
  });

  it('reads 204 and empty bodies as undefined, and keeps unknown fields', async () => {
    await expect(client.ipPolicies.delete('ipp_1')).resolves.toBeUndefined();
    script = [(_, res) => res.writeHead(200).end()];
    await expect(client.tunnelSessions.update('ts_1')).resolves.toBeUndefined();
    script = [json(200, policy('ipp_3'))];
    expect(await client.ipPolicies.get('ipp_3')).toMatchObject({ surprise: 'kept' });
  });

  it('reports a body that is not the endpoint shape as a readable error, not a crash', async () => {
    script = [json(200, { id: 42 })];
    await expect(client.ipPolicies.get('ipp_3')).rejects.toThrow(InvalidResponseError);
    script = [(_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>')];
    await expect(client.ipPolicies.get('ipp_3')).rejects.toThrow(/body is not JSON/);
  });

  it('never follows a redirect', async () => {
    script = [(_, res) => res.writeHead(302, { location: 'https://evil.example.com/' }).end()];
    await expect(client.ipPolicies.get('ipp_3')).rejects.toThrow(
      /redirect to https:\/\/evil\.example\.com\/, which is not followed/,
    );
    expect(requests).toHaveLength(1);
  });

  it('refuses a next page on another origin before requesting it', async () => {
    const page = (next: string | null) =>
      json(200, {
        ip_policies: [policy('ipp_1')],
        uri: `${origin}/ip_policies`,
        next_page_uri: next,
      });
    script = [
      page(`${origin}/ip_policies?before_id=ipp_1`),
      page('https://evil.example.com/ip_policies'),
    ];
    const pages: number[] = [];
    await expect(
      client.ipPolicies.listAll({ onProgress: (loaded) => pages.push(loaded) }),
    ).rejects.toThrow(UnsafeUrlError);
    expect(pages).toEqual([1, 2]);
    expect(requests).toEqual(['GET /ip_policies', 'GET /ip_policies?before_id=ipp_1']);
  });

  it('refuses plain http to anything but this machine', () => {
    expect(() => createApiClient({ baseUrl: 'http://api.example.com', apiKey: 'k' })).toThrow(
      UnsafeUrlError,
    );
  });
});
