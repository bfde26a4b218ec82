/**
 * Accounts never see each other, swept from the catalog: every endpoint with a path id, called
 * by another account on this account's resources, answers 404 as if they did not exist; every
 * body that refers to this account's resources, sent by another account, answers 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../sandbox/agent/agent.ts';
import { ENDPOINTS } from '../../../shared/api/catalog/endpoints.ts';
import type { IdKind } from '../../../shared/api/values/ids.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { exampleBody, type Refs } from './blackbox/examples.ts';
import { Factory, fillPath } from './blackbox/factory.ts';
import { expectError, sandboxForFile } from './support.ts';

const suite = sandboxForFile();
let alice: Factory;
let carol: Factory;
let aliceRefs: Refs;
let agent: Agent;
let sessionId: string;

beforeAll(async () => {
  alice = new Factory(apiCaller(suite.sandbox.url, 'alice-key-1'));
  carol = new Factory(apiCaller(suite.sandbox.url, 'carol-key-1'));
  aliceRefs = await alice.init();
  await carol.init();
  const token = (await alice.create('/credentials', {})).token;
  agent = new Agent({
    url: suite.sandbox.agentUrl,
    authtoken: token,
    version: '3.1.2',
    os: 'linux',
  });
  sessionId = await agent.start().online();
});
afterAll(() => agent?.stop());

/** Fresh resources of `factory`'s account for the path of `e` (the session is alice's agent's). */
async function paramsOf(factory: Factory, e: (typeof ENDPOINTS)[number]) {
  const kinds = e.pathParams as Record<string, IdKind>;
  if (kinds['id'] === 'tunnelSession') return { id: sessionId };
  if (kinds['id'] === 'abuseReport')
    return {
      id: (await factory.create('/abuse_reports', exampleBody('abuseReports.create', aliceRefs)))
        .id,
    };
  return factory.paramsFor(e);
}

/** Marks in place of real ids, to find the example bodies that refer to resources. */
const exampleRefsProbe: Refs = {
  ipPolicy: 'probe-ipPolicy',
  certificateAuthority: 'probe-certificateAuthority',
  httpResponseBackend: 'probe-httpResponseBackend',
  tunnelGroupBackend: 'probe-tunnelGroupBackend',
  failoverBackend: 'probe-failoverBackend',
  sshCertificateAuthority: 'probe-sshCertificateAuthority',
};

const WITH_PATH_ID = ENDPOINTS.filter((e) => Object.keys(e.pathParams).length > 0);

describe('another account', () => {
  it.each(WITH_PATH_ID.map((e) => [e.name, e] as const))(
    '%s on this account’s resource: 404',
    async (_name, e) => {
      const params = await paramsOf(alice, e);
      const body = e.body === null ? undefined : exampleBody(e.name, carol.refs);
      expectError(await carol.call(e.method, fillPath(e.path, params), body), 'notFound');
    },
  );

  it('left the session alone: the agent is still online', async () => {
    expect((await alice.call('GET', `/tunnel_sessions/${sessionId}`)).status).toBe(200);
  });

  const REFERRING = ENDPOINTS.filter(
    (e) =>
      e.body !== null &&
      e.name !== 'abuseReports.create' &&
      !e.name.startsWith('tunnelSessions.') &&
      Object.values(exampleRefsProbe).some((id) =>
        JSON.stringify(exampleBody(e.name, exampleRefsProbe)).includes(id),
      ),
  );

  it('finds every body that refers to other resources', () => {
    expect(REFERRING.length).toBeGreaterThan(10);
  });

  it.each(REFERRING.map((e) => [e.name, e] as const))(
    '%s referring to this account’s resources: 400',
    async (_name, e) => {
      const params = await paramsOf(carol, e);
      const reply = await carol.call(
        e.method,
        fillPath(e.path, params),
        exampleBody(e.name, aliceRefs),
      );
      expectError(reply, 'invalidReference');
    },
  );
});
