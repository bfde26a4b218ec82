import { render } from '@testing-library/svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { KindCalls } from '../../renderer/src/resources/kinds/calls.ts';
import { KINDS } from '../../renderer/src/resources/kinds/kind-list.ts';
import { freshWindow, listOf, listPage as page1, record as item, URI } from './support/records.ts';
import {
  refusingWhile,
  SOME_PROFILES,
  scriptedBridge,
  type ScriptedAnswers,
} from './support/scripted-bridge.ts';
import { watched } from './support/agents.ts';
import { createCredential } from './support/credentials.ts';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { session as someSession } from '../support/tunnel-sessions.ts';

beforeEach(freshWindow);

/** A TLS edge with none of its modules set. */
const tlsEdge = (id: string) =>
  item(id, 'edges/tls', {
    hostports: [],
    backend: null,
    ip_restriction: null,
    mutual_tls: null,
    tls_termination: null,
  });

function open(hash: string) {
  window.location.hash = hash;
}

/** The TLS edge `id` (no modules set) open on its page, and the calls `more` adds. */
function tlsEdgeBridge(id: string, more: ScriptedAnswers) {
  open(`#/edges/tlsEdges/${id}`);
  const edge = tlsEdge(id);
  const answers = {
    'api.tlsEdges.list': listOf('tls_edges', [edge]),
    'api.tlsEdges.get': () => edge,
  };
  return scriptedBridge({ ...answers, ...more });
}

it('refuses a description of more than 255 bytes of UTF-8 before any call, with a counter', async () => {
  open('#/ip-policies');
  const bridge = scriptedBridge({ 'api.ipPolicies.list': () => page1('ip_policies', []) });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'New IP policy' }));
  // 128 two-byte characters: 128 characters, 256 bytes.
  await userEvent.fill(page.getByRole('textbox', { name: 'Description' }), 'é'.repeat(128));
  await expect.element(page.getByText('256 / 255 bytes')).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Create IP policy' }));
  await expect
    .element(page.getByRole('dialog').getByText(/^Description .*at most 255 bytes/))
    .toBeVisible();
  expect(bridge.argsOf('api.ipPolicies.create')).toBeUndefined();
});

it('puts the API refusal beside the field it names, and the code and operation id at the top', async () => {
  open('#/agent-ingresses');
  const bridge = scriptedBridge({
    'api.agentIngresses.list': () => page1('ingresses', []),
    'api.agentIngresses.create': () => {
      throw Object.assign(new Error('domain is already in use'), {
        code: 'ERR_SERVICE_5001',
        operationId: 'op_abc123',
        status: 409,
        field: 'domain',
      });
    },
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'New agent ingress' }));
  await userEvent.fill(page.getByRole('textbox', { name: /Domain/ }), 'tunnels.example.com');
  await userEvent.click(page.getByRole('button', { name: 'Create agent ingress' }));
  const dialog = page.getByRole('dialog');
  await expect.element(dialog.getByText('Domain is already in use')).toBeVisible();
  const alert = dialog.getByRole('alert');
  await expect.element(alert.getByText('ERR_SERVICE_5001')).toBeVisible();
  await expect.element(alert.getByRole('button', { name: 'Copy operation id' })).toBeVisible();
});

it('checks each ACL rule as it is typed, and shows a new token once', async () => {
  open('#/credentials');
  const created = item('cr_new1', 'credentials', {
    acl: ['*'],
    owner_id: 'usr_1',
    token: 'tok_secret',
  });
  const bridge = scriptedBridge({
    'api.credentials.list': () => page1('credentials', []),
    'api.credentials.create': () => created,
    'api.credentials.get': () => ({ ...created, token: null }),
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'New tunnel credential' }));
  await userEvent.click(page.getByRole('button', { name: 'Add ACL rule' }));
  await userEvent.fill(page.getByRole('textbox', { name: 'ACL rule 1' }), 'bind:*');
  await expect.element(page.getByText('must be "*" or', { exact: false })).not.toBeInTheDocument();
  await userEvent.fill(page.getByRole('textbox', { name: 'ACL rule 1' }), 'permit all');
  await expect.element(page.getByText('must be "*" or a "bind:<target>" rule')).toBeVisible();
  await userEvent.fill(page.getByRole('textbox', { name: 'ACL rule 1' }), '*');
  await userEvent.click(page.getByRole('button', { name: 'Create tunnel credential' }));
  await expect
    .element(page.getByLabelText('Token', { exact: true }))
    .toHaveTextContent('tok_secret');
  await expect.element(page.getByRole('button', { name: 'Copy token' })).toBeVisible();
  await expect.element(page.getByText('only time the token is shown')).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Done' }));
  await expect.element(page.getByRole('link', { name: 'cr_new1' })).toBeVisible();
  await expect.element(page.getByText('tok_secret')).not.toBeInTheDocument();
  await userEvent.click(page.getByRole('link', { name: 'cr_new1' }));
  await expect.element(page.getByText('usr_1')).toBeVisible();
  await expect.element(page.getByText('tok_secret')).not.toBeInTheDocument();
});

/**
 * A credential `id` created, its token shown and the agent awaited; `polled` tells the window of
 * a poll of the active profile, as core would.
 */
async function newCredential(id: string) {
  const bridge = await createCredential(
    item(id, 'credentials', { acl: [], owner_id: 'usr_1', token: `tok_${id}` }),
  );
  const status = page.getByRole('dialog').getByRole('status');
  await expect.element(status).toHaveTextContent('Waiting for your agent…');
  const profileId = SOME_PROFILES.activeId ?? '';
  const polled = (sessions: TunnelSession[], lastPollAt = Date.now()) =>
    bridge.emit('sessions.changed', {
      paused: false,
      profiles: [{ ...watched(profileId).profiles[0]!, sessions, lastPollAt }],
    });
  return { status, polled };
}

it('waits with the new token for the first agent on its credential, and says so', async () => {
  const { status, polled } = await newCredential('cr_new2');
  // An agent on another credential is not the one awaited.
  polled([someSession({ metadata: 'old-box' })]);
  await expect.element(status).toHaveTextContent('Waiting for your agent…');
  polled([
    someSession({ metadata: 'old-box' }),
    someSession({ metadata: '{"host":"build-box"}', credential: { id: 'cr_new2', uri: URI } }),
  ]);
  await expect.element(status).toHaveTextContent('Connected: build-box');
});

it('says what to check when no agent came with the new token within a minute of polls', async () => {
  const { status, polled } = await newCredential('cr_new3');
  polled([], Date.now() + 61_000);
  await expect.element(status).toHaveTextContent('No agent has connected with this token');
  await expect.element(status).toHaveTextContent('http://127.0.0.1:4040');
  await expect.element(status).toHaveTextContent('its authtoken is this token');
});

it('reorders failover children with the keyboard and sends them in that order', async () => {
  open('#/backends/failoverBackends');
  const bridge = scriptedBridge({
    'api.failoverBackends.list': () => page1('backends', []),
    'api.failoverBackends.listAll': () => [],
    'api.httpResponseBackends.listAll': () => [
      item('bkdhr_a', 'backends/http_response', { description: 'first' }),
      item('bkdhr_b', 'backends/http_response', { description: 'second' }),
    ],
    'api.tunnelGroupBackends.listAll': () => [],
    'api.failoverBackends.create': (request: { body: { backends: string[] } }) =>
      item('bkdfo_new', 'backends/failover', { backends: request.body.backends }),
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'New failover backend' }));
  const pick = page.getByRole('combobox', { name: 'Child backends to add' });
  await expect.element(pick.getByRole('option', { name: /second/ })).toBeInTheDocument();
  await userEvent.selectOptions(pick, 'bkdhr_a');
  await userEvent.selectOptions(pick, 'bkdhr_b');
  (
    page
      .getByRole('button', { name: "HTTP response backend 'second', position 2 of 2" })
      .element() as HTMLElement
  ).focus();
  await userEvent.keyboard('{ArrowUp}');
  await expect
    .element(page.getByRole('button', { name: "HTTP response backend 'second', position 1 of 2" }))
    .toHaveFocus();
  await userEvent.click(page.getByRole('button', { name: 'Create failover backend' }));
  await expect.element(page.getByRole('link', { name: 'bkdfo_new' })).toBeVisible();
  expect(bridge.argsOf('api.failoverBackends.create')?.[0]).toEqual({
    body: { backends: ['bkdhr_b', 'bkdhr_a'] },
  });
});

it('checks hostports as <host>:<port>', async () => {
  open('#/edges/tlsEdges');
  render(App, { bridge: scriptedBridge({ 'api.tlsEdges.list': () => page1('tls_edges', []) }) });
  await userEvent.click(page.getByRole('button', { name: 'New TLS edge' }));
  await userEvent.click(page.getByRole('button', { name: 'Add hostport', exact: true }));
  await userEvent.fill(page.getByRole('textbox', { name: 'Hostport 1' }), 'app.example.com');
  await expect.element(page.getByText('must be "<host>:<port>"', { exact: false })).toBeVisible();
  await userEvent.fill(page.getByRole('textbox', { name: 'Hostport 1' }), 'app.example.com:443');
  await expect
    .element(page.getByText('must be "<host>:<port>"', { exact: false }))
    .not.toBeInTheDocument();
});

it('offers an elliptic curve only for ecdsa SSH CAs', async () => {
  open('#/ssh/sshCertificateAuthorities');
  render(App, {
    bridge: scriptedBridge({
      'api.sshCertificateAuthorities.list': () => page1('ssh_certificate_authorities', []),
    }),
  });
  await userEvent.click(page.getByRole('button', { name: 'New SSH certificate authority' }));
  await expect
    .element(page.getByRole('combobox', { name: 'Elliptic curve' }))
    .not.toBeInTheDocument();
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Key type' }), 'ecdsa');
  await expect.element(page.getByRole('combobox', { name: 'Elliptic curve' })).toBeVisible();
});

it('names the resource it deletes, and sums up what failed of a selection', async () => {
  open('#/ip-policies');
  const policies = ['ipp_1', 'ipp_2', 'ipp_3'].map((id) =>
    item(id, 'ip_policies', { description: `policy ${id}` }),
  );
  const bridge = scriptedBridge({
    'api.ipPolicies.list': () => page1('ip_policies', policies),
    'api.ipPolicies.delete': (request: { params: { id: string } }) => {
      if (request.params.id === 'ipp_2')
        throw Object.assign(new Error('in use by an edge'), { code: 'ERR_SERVICE_446' });
    },
  });
  render(App, { bridge });
  for (const id of ['ipp_1', 'ipp_2', 'ipp_3'])
    await userEvent.click(page.getByRole('checkbox', { name: `Select ${id}` }));
  await userEvent.click(page.getByRole('button', { name: 'Delete 3 selected' }));
  await expect.element(page.getByRole('dialog')).toHaveTextContent('Delete 3 IP policies?');
  await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
  await expect.element(page.getByText('Deleted 2 IP policies')).toBeVisible();
  const summary = page.getByRole('region', { name: 'What could not be deleted' });
  await expect.element(summary).toHaveTextContent('ipp_2');
  await expect.element(summary).toHaveTextContent('ERR_SERVICE_446');
  await expect.element(page.getByRole('link', { name: 'ipp_2' })).toBeVisible();
  await expect.element(page.getByRole('link', { name: 'ipp_1' })).not.toBeInTheDocument();

  await userEvent.click(page.getByRole('link', { name: 'ipp_2' }));
  await userEvent.click(page.getByRole('button', { name: 'Delete' }));
  await expect
    .element(page.getByRole('dialog'))
    .toHaveTextContent('Delete IP policy ipp_2 (policy ipp_2)?');
});

it('leaves the person where they went when a delete answers after they left its page', async () => {
  const policy = item('ipp_1', 'ip_policies', { description: 'office' });
  let answer: () => void = () => undefined;
  open('#/ip-policies/ipPolicies/ipp_1');
  const bridge = scriptedBridge({
    'api.ipPolicies.list': () => page1('ip_policies', [policy]),
    'api.ipPolicies.get': () => policy,
    'api.ipPolicies.delete': () => new Promise<void>((resolve) => (answer = resolve)),
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
  await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
  // The order that broke it: the person goes elsewhere, then the service answers the delete.
  await userEvent.click(
    page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Abuse reports' }),
  );
  await expect
    .element(page.getByRole('heading', { level: 1, name: 'Abuse reports' }))
    .toBeVisible();
  answer();
  await expect.element(page.getByText('Deleted 1 IP policy')).toBeVisible();
  expect(window.location.hash).toBe('#/abuse-reports');
  await expect.element(page.getByRole('button', { name: 'New abuse report' })).toBeVisible();
});

it('keeps only the rows in view in the DOM for 10,000 items, and counts them', async () => {
  open('#/credentials');
  const many = Array.from({ length: 100 }, (_, i) =>
    item(`cr_${i}`, 'credentials', { acl: [], owner_id: 'usr_1', token: null }),
  );
  const all = Array.from({ length: 10_000 }, (_, i) =>
    item(`cr_${i}`, 'credentials', { acl: [], owner_id: 'usr_1', token: null }),
  );
  render(App, {
    bridge: scriptedBridge({
      'api.credentials.list': () => ({ ...page1('credentials', many), next_page_uri: `${URI}/n` }),
      'api.credentials.listAll': () => all,
    }),
  });
  await expect.element(page.getByText('100+ shown')).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Load all' }));
  await expect.element(page.getByText('10000 shown')).toBeVisible();
  const rows = document.querySelectorAll('tbody tr:not(.spacer)').length;
  expect(rows).toBeLessThan(80);
  await userEvent.fill(
    page.getByRole('searchbox', { name: 'Filter Tunnel credentials' }),
    'cr_9999',
  );
  await expect.element(page.getByText('1 of 10000 shown')).toBeVisible();
});

it('drops the minimum TLS version when TLS terminates upstream, and sets a module with its own call', async () => {
  const bridge = tlsEdgeBridge('edgtls_1', {
    'api.tlsEdges.tls_termination.replace': () => ({
      enabled: true,
      terminate_at: 'upstream',
      min_version: null,
    }),
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'Set TLS termination' }));
  await expect.element(page.getByRole('combobox', { name: 'Minimum TLS version' })).toBeVisible();
  await userEvent.selectOptions(page.getByRole('combobox', { name: 'Terminate at' }), 'upstream');
  await expect
    .element(page.getByRole('combobox', { name: 'Minimum TLS version' }))
    .not.toBeInTheDocument();
  await userEvent.click(
    page.getByRole('dialog').getByRole('button', { name: 'Set TLS termination' }),
  );
  await expect.element(page.getByText('Set TLS termination on TLS edge edgtls_1')).toBeVisible();
  expect(bridge.argsOf('api.tlsEdges.tls_termination.replace')?.[0]).toEqual({
    params: { id: 'edgtls_1' },
    body: { enabled: true, terminate_at: 'upstream' },
  });
});

it("builds a kind's calls from its group, and refuses one the contract does not have", async () => {
  const policy = item('ipp_1', 'ip_policies');
  const bridge = scriptedBridge({ 'api.ipPolicies.get': () => policy });
  const kind = (group: string) => KINDS.find((k) => k.group === group) ?? KINDS[0]!;
  await expect(new KindCalls(bridge, kind('ipPolicies')).get('ipp_1')).resolves.toEqual(policy);
  // Abuse reports cannot be deleted: the window never asks, and the name is refused if it did.
  await expect(new KindCalls(bridge, kind('abuseReports')).delete('abrp_1')).rejects.toThrow(
    'The app has no call api.abuseReports.delete',
  );
  expect(bridge.calls.map((c) => c.name)).toEqual(['api.ipPolicies.get']);
});

it('says in words that an unreachable API cannot list, offers Retry, and clears by itself with a notice once it answers', async () => {
  open('#/ip-policies');
  let down = true;
  const bridge = scriptedBridge({
    'api.ipPolicies.list': refusingWhile(
      () => down,
      { code: 'NETWORK_ERROR', message: 'connect ECONNREFUSED 127.0.0.1:4040' },
      () => page1('ip_policies', [item('ipp_back1', 'ip_policies')]),
    ),
  });
  render(App, { bridge });
  const alert = page.getByRole('alert');
  await expect.element(alert.getByText(/API is not answering/)).toBeVisible();
  await expect.element(page.getByText('0+ shown')).not.toBeInTheDocument();
  await userEvent.click(alert.getByRole('button', { name: 'Retry' }));
  await expect.element(alert.getByText(/API is not answering/)).toBeVisible();

  down = false;
  await expect
    .element(page.getByRole('link', { name: /ipp_back1/ }), { timeout: 8_000 })
    .toBeVisible();
  await expect.element(page.getByText(/API is not answering/)).not.toBeInTheDocument();
  await expect.element(page.getByText('Local sandbox’s API answers again')).toBeVisible();
});

it('asks before Escape drops a token that was not copied, and not once it was', async () => {
  await createCredential(
    item('cr_esc1', 'credentials', { acl: [], owner_id: 'usr_1', token: 'tok_esc' }),
  );
  const token = page.getByLabelText('Token', { exact: true });
  await expect.element(token).toHaveTextContent('tok_esc');
  await userEvent.keyboard('{Escape}');
  await expect
    .element(page.getByRole('dialog', { name: 'Close without the token?' }))
    .toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Back to the token' }));
  await expect.element(token).toBeVisible();

  await userEvent.click(page.getByRole('button', { name: 'Copy token' }));
  await userEvent.keyboard('{Escape}');
  await expect.element(token).not.toBeInTheDocument();
  await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
});

it('counts an IP policy picked in the select, without an Add to press', async () => {
  const bridge = tlsEdgeBridge('edgtls_ip', {
    'api.ipPolicies.listAll': () => [item('ipp_office', 'ip_policies', { description: 'office' })],
    'api.tlsEdges.ip_restriction.replace': () => ({
      enabled: true,
      ip_policies: [{ id: 'ipp_office', uri: `${URI}/ip_policies/ipp_office` }],
    }),
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'Set IP restriction' }));
  const dialog = page.getByRole('dialog');
  await expect.element(dialog.getByRole('group', { name: 'IP policies (required)' })).toBeVisible();
  const pick = dialog.getByRole('combobox', { name: 'IP policies to add' });
  await expect.element(pick.getByRole('option', { name: /office/ })).toBeInTheDocument();
  await userEvent.selectOptions(pick, 'ipp_office');
  await userEvent.click(dialog.getByRole('button', { name: 'Set IP restriction' }));
  await expect.element(page.getByText('Choose one or more IP policies')).not.toBeInTheDocument();
  await expect
    .poll(() => bridge.argsOf('api.tlsEdges.ip_restriction.replace')?.[0])
    .toEqual({
      params: { id: 'edgtls_ip' },
      body: { enabled: true, ip_policy_ids: ['ipp_office'] },
    });
});

it('starts a required list with its first entry to type in', async () => {
  open('#/abuse-reports');
  render(App, { bridge: scriptedBridge() });
  await userEvent.click(page.getByRole('button', { name: 'New abuse report' }));
  const dialog = page.getByRole('dialog');
  await expect.element(dialog.getByRole('group', { name: 'URL (required)' })).toBeVisible();
  await expect.element(dialog.getByRole('textbox', { name: 'URL 1' })).toBeVisible();
});

it('keeps an open item and its list as they are when the profiles are told again unchanged', async () => {
  const bridge = tlsEdgeBridge('edgtls_1', {});
  render(App, { bridge });
  await expect.element(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
  const reads = () => bridge.calls.filter((c) => c.name.startsWith('api.tlsEdges.')).length;
  const before = reads();
  // What any profile's change (a key, a sandbox's state) sends: the same active profile.
  const state = await bridge.invoke('profiles.state');
  for (let i = 0; i < 5; i++) bridge.emit('profiles.changed', { ...state });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(reads()).toBe(before);
  await expect.element(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
});

/** A failover backend with one HTTP response child, the lists of both, and the others empty. */
function failoverAnswers(failoverList: ScriptedAnswers['api.failoverBackends.list']) {
  const child = item('bkdhr_1', 'backends/http_response', { body: '', status_code: 200 });
  return {
    'api.failoverBackends.list': failoverList,
    'api.httpResponseBackends.list': listOf('http_response_backends', [
      { ...child, description: 'child one' },
    ]),
    'api.httpResponseBackends.listAll': () => [{ ...child, description: 'child one' }],
    'api.tunnelGroupBackends.listAll': () => [],
  };
}
const failover = item('bkdfo_1', 'backends/failover', { backends: ['bkdhr_1'] });

it("asks for a kind's list once, as its address opens and before its screen is drawn", async () => {
  open('#/settings');
  const drawn: boolean[] = [];
  const bridge = scriptedBridge({
    ...failoverAnswers(() => {
      drawn.push(document.querySelector('table[aria-label="Failover backends"]') !== null);
      return page1('failover_backends', [failover]);
    }),
    'api.failoverBackends.get': () => failover,
  });
  render(App, { bridge });
  await expect.element(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const before = bridge.calls.length;
  open('#/backends/failoverBackends');
  await expect.element(page.getByRole('row', { name: /bkdfo_1 .*child one/ })).toBeVisible();
  expect(drawn).toEqual([false]);
  // The lookups of its references first, small answers that are in by the time the page is,
  // so its rows are drawn once, named; the page beside them.
  expect(bridge.calls.slice(before, before + 3).map((c) => c.name)).toEqual([
    'api.httpResponseBackends.listAll',
    'api.tunnelGroupBackends.listAll',
    'api.failoverBackends.list',
  ]);
  // Its resource's page keeps the list its screen holds: no second one is started for it.
  await userEvent.click(page.getByRole('link', { name: 'bkdfo_1' }));
  await expect.element(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
  expect(bridge.calls.filter((c) => c.name === 'api.failoverBackends.list')).toHaveLength(1);
});

it('drops the first page of a list whose address was left before it came', async () => {
  open('#/settings');
  let answer: (page: unknown) => void = () => undefined;
  const bridge = scriptedBridge(
    failoverAnswers(() => new Promise((resolve) => (answer = resolve))),
  );
  render(App, { bridge });
  await expect.element(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  open('#/backends/failoverBackends');
  await expect
    .poll(() => bridge.calls.some((c) => c.name === 'api.failoverBackends.list'))
    .toBe(true);
  open('#/backends/httpResponseBackends');
  const table = page.getByRole('table', { name: 'HTTP response backends' });
  await expect.element(table.getByText('child one')).toBeVisible();
  answer(page1('failover_backends', [failover]));
  await new Promise((resolve) => setTimeout(resolve, 100));
  await expect.element(page.getByText('bkdfo_1')).not.toBeInTheDocument();
  await expect.element(table.getByText('child one')).toBeVisible();
  expect(bridge.calls.filter((c) => c.name.endsWith('Backends.list'))).toHaveLength(2);
});

it('offers New only once the first page says where it goes: in the header beside rows, alone when there are none', async () => {
  // A "New" in the header while the first page was on its way moved into the empty state as it
  // came: a click landing in between (a loaded CI run's did) pressed nothing.
  const answers: ((page: unknown) => void)[] = [];
  const held = () => new Promise((resolve) => answers.push(resolve));
  open('#/ip-policies');
  render(App, { bridge: scriptedBridge({ 'api.ipPolicies.list': held }) });
  const heading = page.getByRole('heading', { level: 1, name: 'IP policies' });
  await expect.element(heading).toBeVisible();
  await expect.poll(() => answers.length).toBe(1);
  expect(page.getByRole('button', { name: /^New IP policy/ }).elements()).toHaveLength(0);
  answers[0]?.(page1('ip_policies'));
  await expect.element(page.getByText('No IP policies yet.')).toBeVisible();
  expect(page.getByRole('button', { name: 'New IP policy' }).elements()).toHaveLength(1);

  // With rows: New waits for them too, then stands in the header.
  open('#/settings');
  await expect.element(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  open('#/ip-policies');
  await expect.poll(() => answers.length).toBe(2);
  expect(page.getByRole('button', { name: /^New IP policy/ }).elements()).toHaveLength(0);
  answers[1]?.(page1('ip_policies', [item('ipp_1', 'ip_policies', { description: 'office' })]));
  await expect.element(page.getByRole('row', { name: /ipp_1/ })).toBeVisible();
  expect(page.getByRole('button', { name: 'New IP policy' }).elements()).toHaveLength(1);
});

it('offers New in the header when the first page fails: creating does not wait for a list', async () => {
  open('#/ip-policies');
  const refused = { code: 'NETWORK_ERROR', message: 'connect ECONNREFUSED 127.0.0.1:4040' };
  render(App, { bridge: scriptedBridge({ 'api.ipPolicies.list': { error: refused } }) });
  await expect.element(page.getByRole('alert').getByText(/API is not answering/)).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'New IP policy' }));
  await expect.element(page.getByRole('dialog', { name: 'New IP policy' })).toBeVisible();
});
