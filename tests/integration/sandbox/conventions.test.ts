import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ID_PREFIXES } from '../../../shared/api/values/ids.ts';
import { startSandbox } from '../../../sandbox/index.ts';
import { freePort } from '../../support/free-port.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { AUTH, expectError, raw, sandboxForFile } from './support.ts';

const suite = sandboxForFile();
const { api } = suite;

const post = (path: string, body: string, headers: Record<string, string>) =>
  raw(`${suite.sandbox.url}${path}`, {
    method: 'POST',
    body,
    headers: { ...AUTH('alice-key-1'), ...headers },
  });

describe('representations', () => {
  it('gives ids with the prefix, full uris, created_at in UTC and the success statuses', async () => {
    const created = await api('POST', '/ip_policies', {
      description: 'office',
      metadata: '{"a":1}',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(created.body.id).toMatch(new RegExp(`^${ID_PREFIXES.ipPolicy}[0-9A-Za-z]{27}$`));
    expect(created.body.uri).toBe(`${suite.sandbox.url}/ip_policies/${created.body.id}`);
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(created.headers.get('operation-id')).toMatch(/^op_[0-9A-Za-z]{27}$/);

    const got = await api('GET', `/ip_policies/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const updated = await api('PATCH', `/ip_policies/${created.body.id}`, { description: 'home' });
    expect(updated.body).toMatchObject({ description: 'home', metadata: '{"a":1}' });
    const deleted = await api('DELETE', `/ip_policies/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expectError(await api('GET', `/ip_policies/${created.body.id}`), 'notFound');
  });

  it('builds uris from a loopback Host header, never from another one', async () => {
    const port = new URL(suite.sandbox.url).port;
    const viaLocalhost = apiCaller(`http://localhost:${port}`, 'alice-key-1');
    const listed = await viaLocalhost('GET', '/ip_policies?limit=1');
    expect(listed.body.uri).toBe(`http://localhost:${port}/ip_policies`);
    const spoofed = await raw(`${suite.sandbox.url}/ip_policies`, {
      headers: { ...AUTH('alice-key-1'), Host: `evil.example:${port}` },
    });
    expect(spoofed.body.uri).toBe(`${suite.sandbox.url}/ip_policies`);
  });

  it('uses --base-url for every uri when given', async () => {
    const port = await freePort();
    const other = await startSandbox({ apiKey: 'k', port, baseUrl: 'https://api.example.test/v/' });
    try {
      expect(other.url).toBe('https://api.example.test/v');
      const reply = await raw(`http://127.0.0.1:${port}/ip_policies`, {
        headers: AUTH('k'),
      });
      expect(reply.body.uri).toBe('https://api.example.test/v/ip_policies');
    } finally {
      await other.close();
    }
  });
});

describe('request checks', () => {
  it('needs Content-Type: application/json on a body (216, 210), UTF-8 only', async () => {
    // A string body would get text/plain from fetch; bytes go without a Content-Type.
    const bytes = new TextEncoder().encode('{}');
    expectError(
      await raw(`${suite.sandbox.url}/ip_policies`, {
        method: 'POST',
        body: bytes,
        headers: AUTH('alice-key-1'),
      }),
      'missingContentType',
    );
    expectError(
      await post('/ip_policies', '{}', { 'Content-Type': 'text/plain' }),
      'unsupportedContentType',
    );
    expectError(
      await post('/ip_policies', '{}', { 'Content-Type': 'application/json; charset=latin1' }),
      'unsupportedContentType',
    );
    const ok = await post('/ip_policies', '{}', {
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(ok.status).toBe(201);
  });

  it('refuses bodies that are not one JSON object (213), including no body at all', async () => {
    const json = { 'Content-Type': 'application/json' };
    for (const body of ['{', '[]', '"x"', '1', 'null', '{}{}'])
      expectError(await post('/ip_policies', body, json), 'invalidJsonBody');
    expectError(
      await raw(`${suite.sandbox.url}/ip_policies`, {
        method: 'POST',
        headers: AUTH('alice-key-1'),
      }),
      'invalidJsonBody',
    );
    const badUtf8 = await raw(`${suite.sandbox.url}/ip_policies`, {
      method: 'POST',
      body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
      headers: { ...AUTH('alice-key-1'), ...json },
    });
    expectError(badUtf8, 'invalidJsonBody');
  });

  it('refuses a body where none is taken (323) and one over 1 MiB (322)', async () => {
    const created = await api('POST', '/ip_policies', {});
    expectError(await api('DELETE', `/ip_policies/${created.body.id}`, {}), 'bodyNotAllowed');
    expectError(
      await post('/ip_policies', JSON.stringify({ metadata: 'x'.repeat(2 ** 20) }), {
        'Content-Type': 'application/json',
      }),
      'bodyTooLarge',
    );
    // A GET with a body, which fetch cannot send.
    const reply = await rawHttp(
      `GET /ip_policies HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-key-1\r\nService-Version: 2\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(reply).toContain('ERR_SERVICE_323');
  });

  it('validates bodies: unknown field 214, wrong type 215, missing 300, byte limits 420/421', async () => {
    expectError(await api('POST', '/ip_policies', { nope: 1 }), 'unknownField');
    const wrong = await api('POST', '/ip_policies', { description: 5 });
    expectError(wrong, 'invalidValue');
    expect(wrong.body.details.field).toBe('description');
    expectError(await api('POST', '/agent_ingresses', {}), 'missingField');
    expectError(
      await api('POST', '/ip_policies', { description: 'é'.repeat(128) }),
      'descriptionTooLong',
    );
    expect((await api('POST', '/ip_policies', { description: 'é'.repeat(127) + 'a' })).status).toBe(
      201,
    );
    expectError(
      await api('POST', '/ip_policies', { metadata: 'x'.repeat(4097) }),
      'metadataTooLong',
    );
  });

  it('checks query parameters: unknown 231, limit 233, before_id 321; a repeated one counts once', async () => {
    expectError(await api('GET', '/ip_policies?foo=1'), 'unknownQueryParameter');
    expectError(await api('GET', '/ip_policies?__proto__=1'), 'unknownQueryParameter');
    const created = await api('POST', '/ip_policies', {});
    expectError(
      await api('GET', `/ip_policies/${created.body.id}?limit=1`),
      'unknownQueryParameter',
    );
    for (const limit of ['0', '101', '-1', '01', '1.5', 'x', ''])
      expectError(await api('GET', `/ip_policies?limit=${limit}`), 'invalidLimit');
    expectError(await api('GET', '/ip_policies?before_id=cr_abc'), 'invalidBeforeId');
    const repeated = await api('GET', '/ip_policies?limit=1&limit=500');
    expect(repeated.status).toBe(200);
    expect(repeated.body.ip_policies).toHaveLength(1);
  });

  it('answers unknown paths 302, other methods 303 with Allow, malformed path ids 222', async () => {
    expectError(await api('GET', '/nope'), 'unknownPath');
    expectError(await api('GET', '/ip_policies/'), 'unknownPath');
    expectError(await api('GET', '/edges/tls/edgtls_x/nope'), 'unknownPath');
    const put = await api('PUT', '/ip_policies');
    expectError(put, 'methodNotAllowed');
    expect(put.headers.get('allow')).toBe('POST, GET');
    expectError(await api('OPTIONS', '/ip_policies/ipp_abc'), 'methodNotAllowed');
    const wrongKind = await api('GET', '/ip_policies/cr_abc');
    expectError(wrongKind, 'malformedPathId');
    expect(wrongKind.body.details.field).toBe('id');
    expectError(await api('GET', '/edges/https/edghts_a/routes/edghts_b'), 'malformedPathId');
    expectError(await api('GET', '/ip_policies/ipp_%C3%A9'), 'malformedPathId');
    expectError(await api('GET', '/ip_policies/%zz'), 'unknownPath');
  });

  it('answers a request HTTP cannot parse in the error shape (324)', async () => {
    const reply = await rawHttp('GARBAGE\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).toContain('ERR_SERVICE_324');
    expect(reply).toMatch(/Operation-Id: op_/);
  });

  it('finds every operation again by its id', async () => {
    const failed = await api('GET', '/ip_policies/ipp_missing');
    const id = failed.body.details.operation_id;
    const op = await api('GET', `/_sandbox/operations/${id}`);
    expect(op.status).toBe(200);
    expect(op.body).toMatchObject({
      operation_id: id,
      method: 'GET',
      path: '/ip_policies/ipp_missing',
      status: 404,
      error_code: 'ERR_SERVICE_301',
      account: 'acme',
    });
    // Another account's operation is as absent as its resources.
    expectError(
      await apiCaller(suite.sandbox.url, 'carol-key-1')('GET', `/_sandbox/operations/${id}`),
      'notFound',
    );
    expectError(
      await apiCaller(suite.sandbox.url, 'bob-key-1')('GET', `/_sandbox/operations/${id}`),
      'unknownApiKey',
    );
  });
});

function rawHttp(request: string): Promise<string> {
  const { port } = new URL(suite.sandbox.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
    let out = '';
    socket.on('data', (chunk) => (out += chunk.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}
