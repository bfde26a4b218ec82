import { afterAll, beforeAll, expect } from 'vitest';
import { ErrorBody } from '../../../shared/api/errors/error-body.ts';
import { ERRORS, type ErrorName } from '../../../shared/api/errors/errors.ts';
import { startSandbox, type AccountsFile, type Sandbox } from '../../../sandbox/index.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';

export { CA_PEM, PUBLIC_KEYS } from '../../unit/shared/api/fixtures.ts';

/** Two accounts: acme (an admin, a non-admin, a bot, abuse reports on) and globex. */
export const ACCOUNTS: AccountsFile = {
  accounts: [
    {
      name: 'acme',
      abuse_reports: true,
      users: [
        { id: 'usr_alice', admin: true, api_keys: ['alice-key-1'] },
        { id: 'usr_bob', admin: false, api_keys: ['bob-key-1'] },
      ],
      bots: ['bot_ci'],
    },
    { name: 'globex', users: [{ id: 'usr_carol', admin: true, api_keys: ['carol-key-1'] }] },
  ],
};

/**
 * One sandbox for a test file (ACCOUNTS, no rate limit), started before its tests and closed
 * after them, and alice's caller. `api` can be taken out at once: it calls whatever caller the
 * sandbox of the moment has.
 */
export function sandboxForFile() {
  let sandbox: Sandbox | undefined;
  let caller: ReturnType<typeof apiCaller> | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ accounts: ACCOUNTS, rateLimit: 'off' });
    caller = apiCaller(sandbox.url, 'alice-key-1');
  });
  afterAll(() => sandbox?.close());
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the sandbox starts in beforeAll');
    return value;
  };
  return {
    get sandbox(): Sandbox {
      return started(sandbox);
    },
    api: (method: string, path: string, body?: unknown) => started(caller)(method, path, body),
  };
}

/** Callers for the users of ACCOUNTS: alice (admin) and bob share acme, carol is globex's. */
export function accountCallers(url: string) {
  return {
    alice: apiCaller(url, 'alice-key-1'),
    bob: apiCaller(url, 'bob-key-1'),
    carol: apiCaller(url, 'carol-key-1'),
  };
}

/** The reply is the API error `name`: its status, its code, and the spec's error shape. */
export function expectError(reply: ApiReply, name: ErrorName): void {
  const { code, status } = ERRORS[name];
  expect({ status: reply.status, code: reply.body?.error_code }).toEqual({ status, code });
  expect(ErrorBody.safeParse(reply.body).success).toBe(true);
  expect(reply.body.status_code).toBe(status);
  expect(reply.body.details.operation_id).toBe(reply.headers.get('operation-id'));
}

/** A raw request, for what apiCaller always gets right (headers, JSON). */
export async function raw(
  url: string,
  init: RequestInit & { headers?: Record<string, string> },
): Promise<ApiReply> {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

export const AUTH = (key: string) => ({ Authorization: `Bearer ${key}`, 'Service-Version': '2' });

/** Made with openssl for these tests: a leaf (CA:FALSE) and a CA with key usages. */
export const LEAF_PEM = `-----BEGIN CERTIFICATE-----
MIIBnTCCAUOgAwIBAgIUPydmEakOrKzt9OfnCMd7w0hHENIwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQbGVhZi5leGFtcGxlLmNvbTAeFw0yNjExMjEyMjUwMDNaFw0z
NjExMTgyMjUwMDNaMBsxGTAXBgNVBAMMEGxlYWYuZXhhbXBsZS5jb20wWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAARy4alwJKxmCM/UoGYkRsvU79WMv/i4fIMeY6/E
46w36Q8qrv5I5QYbf3IusktB8+h4BKxgrXVButJsNWLG+BFFo2UwYzAdBgNVHQ4E
FgQUyTOV17RyOvP9Y0snT+so6vNvYmYwHwYDVR0jBBgwFoAUyTOV17RyOvP9Y0sn
T+so6vNvYmYwDAYDVR0TAQH/BAIwADATBgNVHSUEDDAKBggrBgEFBQcDATAKBggq
hkjOPQQDAgNIADBFAiArnEcZ3Uus7CGYTSMI0ln64e3lxBdkju/07GJ+JECCkQIh
AIb5hlcBOWdE16JAZPtUmtJbe2jHejxvjYSwT9+pYl07
-----END CERTIFICATE-----
`;
export const USAGE_CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBrTCCAVSgAwIBAgIUIPz2ambDZfrDUKOgERwvv7vXd18wCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPQnVycm93IFVzYWdlIENBMB4XDTI2MTEyMTIyNTAwM1oXDTM2
MTExODIyNTAwM1owGjEYMBYGA1UEAwwPQnVycm93IFVzYWdlIENBMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAEP9p0nmgts4IOfhP1i+u92XYRc0qqBswmbPwcHBe4
wDxwRMd49hXJMG0GZQ1h2HId9n6aY2OGYkTiNusn+SNUeaN4MHYwHQYDVR0OBBYE
FLcV5gZ7StrY+xjp/0n+kkw0eO/bMB8GA1UdIwQYMBaAFLcV5gZ7StrY+xjp/0n+
kkw0eO/bMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgGGMBMGA1UdJQQM
MAoGCCsGAQUFBwMCMAoGCCqGSM49BAMCA0cAMEQCIBVmPxLOfg+TlWGgYvIO4cCa
H2Rd+Wr0LZc3clRIANFAAiAlwSF8fniJcBCXfzp1SAzo8slSSvFT1kanTO1i8tfJ
fg==
-----END CERTIFICATE-----
`;
