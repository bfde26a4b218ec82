import { render } from '@testing-library/svelte';
import { beforeEach, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
// The window's own styles: what fits in 800×600 depends on them.
import '../../renderer/src/app.css';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { BridgeCallError } from '../../shared/app/ipc/bridge.ts';
import { freshWindow, listOf, record as item, URI } from './support/records.ts';
import { scriptedBridge, type ScriptedBridge } from './support/scripted-bridge.ts';
import { timeWords } from '../../shared/app/clock.ts';

/*
 * How a detail reads: labels, times, booleans, references as what they name (through one cache,
 * with one background list per kind referred to), modules as sentences, what uses a resource and
 * what deleting it does.
 */

const CREATED = '2026-01-01T00:00:00Z';
const ref = (id: string, path: string) => ({ id, uri: `${URI}/${path}/${id}` });

beforeEach(freshWindow);

const callsOf = (bridge: ScriptedBridge, name: string) =>
  bridge.calls.filter((c) => c.name === name);

const PRIMARY = item('bkdfo_Primary1', 'backends/failover', {
  description: 'Primary then hello',
  backends: ['bkdhr_Hello1', 'bkdtg_Office1'],
});
const HELLO = item('bkdhr_Hello1', 'backends/http_response', {
  description: 'hello',
  body: 'hi',
  headers: {},
  status_code: 200,
});
const OFFICE = item('bkdtg_Office1', 'backends/tunnel_group', { labels: { team: 'ops' } });
const TLS_EDGE = item('edgtls_Edge1', 'edges/tls', {
  description: 'Shop',
  hostports: ['shop.example.com:443'],
  backend: { enabled: true, backend: ref(PRIMARY.id, 'backends/failover') },
  ip_restriction: null,
  mutual_tls: null,
  tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.2' },
});

function backendsBridge(extra: Parameters<typeof scriptedBridge>[0] = {}) {
  return scriptedBridge({
    'api.tlsEdges.list': listOf('tls_edges', [TLS_EDGE]),
    'api.tlsEdges.get': () => TLS_EDGE,
    'api.tlsEdges.listAll': () => [TLS_EDGE],
    'api.httpsEdges.listAll': () => [],
    'api.failoverBackends.list': listOf('backends', [PRIMARY]),
    'api.failoverBackends.listAll': () => [PRIMARY],
    'api.failoverBackends.get': () => PRIMARY,
    'api.httpResponseBackends.listAll': () => [HELLO],
    'api.httpResponseBackends.list': listOf('backends', [HELLO]),
    'api.httpResponseBackends.get': () => HELLO,
    'api.tunnelGroupBackends.listAll': () => [OFFICE],
    ...extra,
  });
}

it('labels every field, times in words with the exact time on focus, maps as lists, and copies the JSON', async () => {
  const written = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
  window.location.hash = `#/credentials/credentials/cr_Token1`;
  const credential = item('cr_Token1', 'credentials', {
    description: 'laptop',
    acl: ['bind:*.example.com'],
    owner_id: 'usr_Owner1234567',
    token: null,
  });
  render(App, {
    bridge: scriptedBridge({
      'api.credentials.list': listOf('credentials', [credential]),
      'api.credentials.get': () => credential,
    }),
  });
  const detail = page.getByRole('definition');
  await expect.element(page.getByRole('term').filter({ hasText: 'Created' })).toBeVisible();
  for (const label of ['ID', 'API address', 'Owner', 'ACL rules'])
    await expect.element(page.getByRole('term').filter({ hasText: label })).toBeVisible();
  // The API's names are gone, and so is the token that is null after its creation.
  for (const name of ['created_at', 'owner_id', 'uri', 'token']) {
    await expect.element(page.getByRole('term').filter({ hasText: name })).not.toBeInTheDocument();
  }
  // Older than a day: its date and time in the locale's words; "ago" is for the last day.
  const time = page.getByRole('button', { name: timeWords(CREATED), exact: true });
  await expect.element(time).toBeVisible();
  expect(document.body.textContent).not.toContain(CREATED);
  (time.element() as HTMLElement).focus();
  const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' }).format(
    new Date(CREATED),
  );
  await expect.element(page.getByRole('tooltip')).toHaveTextContent(exact);
  // Showing the exact time changes neither the button's name nor what a locator finds.
  await expect.element(time).toHaveFocus();
  // An owner the window has no screen of reads as its kind and a short id.
  await expect.element(detail.getByText('user usr_Owne…')).toBeVisible();

  await userEvent.click(page.getByRole('button', { name: 'Copy as JSON' }));
  expect(JSON.parse(String(written.mock.calls[0]?.[0]))).toEqual(credential);
  written.mockRestore();
});

it('shows booleans as words and maps as lists', async () => {
  window.location.hash = `#/backends/tunnelGroupBackends/${OFFICE.id}`;
  const office = { ...OFFICE, labels: { team: 'ops', env: 'prod' }, paused: false };
  render(App, {
    bridge: backendsBridge({
      'api.tunnelGroupBackends.list': listOf('backends', [office]),
      'api.tunnelGroupBackends.get': () => office,
    }),
  });
  const labels = page.getByRole('definition').filter({ hasText: 'team' });
  await expect.poll(() => labels.getByRole('listitem').elements().length).toBe(2);
  await expect.element(page.getByRole('term').filter({ hasText: 'Paused' })).toBeVisible();
  await expect.element(page.getByRole('definition').filter({ hasText: /^No$/ })).toBeVisible();
});

it('shows references as what they name, linked, from one background list per kind', async () => {
  window.location.hash = `#/edges/tlsEdges/${TLS_EDGE.id}`;
  const bridge = backendsBridge();
  render(App, { bridge });
  const backend = page.getByRole('article', { name: 'Backend' });
  await expect
    .element(
      backend.getByText("Sends traffic to failover backend 'Primary then hello' (2 backends)"),
    )
    .toBeVisible();
  const link = backend.getByRole('link', { name: 'Primary then hello' });
  await expect.element(link).toHaveAttribute('href', `#/backends/failoverBackends/${PRIMARY.id}`);
  expect(document.body.textContent).not.toContain(`${URI}/backends/failover`);
  const termination = page.getByRole('article', { name: 'TLS termination' });
  await expect
    .element(termination)
    .toHaveTextContent('TLS terminated at the edge, TLS 1.2 or newer');
  // Its settings as words, not the API's values ("edge", "1.2").
  await expect.element(termination.getByText('At the edge', { exact: true })).toBeVisible();
  await expect.element(termination.getByText('TLS 1.2', { exact: true })).toBeVisible();
  const lookups = callsOf(bridge, 'api.failoverBackends.listAll');
  expect(lookups).toHaveLength(1);
  expect(lookups[0]?.args[0]).toEqual({ priority: 'background' });
  expect(callsOf(bridge, 'api.failoverBackends.get')).toEqual([]);
});

it('resolves the references of 500 rows with one list of the kind they name, not a call per row', async () => {
  window.location.hash = '#/backends/failoverBackends';
  const children = Array.from({ length: 5 }, (_, i) =>
    item(`bkdhr_Child${i}`, 'backends/http_response', { description: `child ${i}` }),
  );
  const rows = Array.from({ length: 500 }, (_, i) =>
    item(`bkdfo_Row${i}`, 'backends/failover', {
      backends: [children[i % 5]?.id, children[(i + 1) % 5]?.id],
    }),
  );
  let answered = 0;
  const bridge = backendsBridge({
    'api.failoverBackends.list': () => {
      const page = rows.slice(answered, answered + 100);
      answered += page.length;
      return {
        backends: page,
        uri: `${URI}/x`,
        next_page_uri: answered < rows.length ? `${URI}/next` : null,
      };
    },
    'api.failoverBackends.listAll': () => rows,
    'api.httpResponseBackends.listAll': () => children,
  });
  render(App, { bridge });
  await expect.element(page.getByRole('cell', { name: 'child 0, child 1' }).first()).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Load all' }));
  await expect.element(page.getByText('500 shown', { exact: true })).toBeVisible();
  const scroller = document.querySelector('.scroller') as HTMLElement;
  scroller.scrollTop = scroller.scrollHeight;
  await expect.element(page.getByRole('cell', { name: 'child 4, child 0' }).last()).toBeVisible();
  expect(callsOf(bridge, 'api.httpResponseBackends.listAll')).toHaveLength(1);
  expect(callsOf(bridge, 'api.httpResponseBackends.get')).toEqual([]);
});

it('asks for what its rows refer to with its first page, not once the screen has drawn', async () => {
  window.location.hash = '#/backends/failoverBackends';
  let askedWithPage: string[] = [];
  const bridge = backendsBridge({
    'api.failoverBackends.list': () => {
      // What had left by the end of the turn the page was asked in: the lookups go beside it.
      queueMicrotask(() => (askedWithPage = bridge.calls.map((c) => c.name)));
      return listOf('backends', [PRIMARY])();
    },
  });
  render(App, { bridge });
  await expect.element(page.getByRole('cell', { name: /^hello/ })).toBeVisible();
  expect(askedWithPage).toEqual(
    expect.arrayContaining(['api.httpResponseBackends.listAll', 'api.tunnelGroupBackends.listAll']),
  );
});

const ROUTE = item('edghtsrt_Route1', 'edges/https/edghts_Edge1/routes', {
  edge_id: 'edghts_Edge1',
  match_type: 'path_prefix',
  match: '/api',
  backend: { enabled: true, backend: ref(HELLO.id, 'backends/http_response') },
  webhook_verification: { enabled: true, provider: 'go_cardless', secret: 'gc-s3cret' },
  oauth: {
    enabled: true,
    options_passthrough: false,
    cookie_prefix: 'service.',
    inactivity_timeout: 0,
    maximum_duration: 0,
    auth_check_interval: 0,
    provider: {
      github: {
        client_id: null,
        client_secret: null,
        scopes: [],
        email_addresses: [],
        email_domains: [],
        teams: ['acme/ops'],
        organizations: [],
      },
      facebook: null,
      microsoft: null,
      google: null,
      linkedin: null,
      gitlab: null,
      twitch: null,
      amazon: null,
    },
  },
});
const ROUTE_EDGE = item('edghts_Edge1', 'edges/https', {
  hostports: ['app.example.com:443'],
  mutual_tls: null,
  tls_termination: null,
  routes: [ROUTE],
});

async function openRoute(bridge: ScriptedBridge) {
  window.location.hash = `#/edges/httpsEdges/${ROUTE_EDGE.id}`;
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'Modules of route edghtsrt_Route1' }));
}

it('says each route module in a sentence: the provider set, by its product name', async () => {
  const bridge = backendsBridge({
    'api.httpsEdges.list': listOf('https_edges', [ROUTE_EDGE]),
    'api.httpsEdges.get': () => ROUTE_EDGE,
  });
  await openRoute(bridge);
  await expect.element(page.getByRole('cell', { name: 'Path prefix /api' })).toBeVisible();
  const oauth = page.getByRole('article', { name: 'OAuth' });
  await expect.element(oauth).toHaveTextContent('Login with GitHub — members of acme/ops');
  for (const unset of ['twitch', 'amazon', 'facebook', 'google'])
    expect(oauth.element().textContent?.toLowerCase()).not.toContain(unset);
  const webhook = page.getByRole('article', { name: 'Webhook verification' });
  await expect.element(webhook).toHaveTextContent('Checks the signature of GoCardless webhooks');
  expect(webhook.element().textContent).not.toContain('go_cardless');
  await expect
    .element(page.getByRole('article', { name: 'Backend' }))
    .toHaveTextContent("Sends traffic to HTTP response backend 'hello'");
});

it('asks before removing a module, saying what it does, and removes it only on yes', async () => {
  const bridge = backendsBridge({
    'api.httpsEdges.list': listOf('https_edges', [ROUTE_EDGE]),
    'api.httpsEdges.get': () => ROUTE_EDGE,
    'api.httpsEdgeRoutes.get': () => ROUTE,
    'api.httpsEdgeRoutes.oauth.delete': () => undefined,
  });
  await openRoute(bridge);
  await userEvent.click(page.getByRole('button', { name: 'Remove OAuth' }));
  const dialog = page.getByRole('dialog');
  await expect.element(dialog).toHaveTextContent('Remove OAuth from route /api?');
  await expect.element(dialog).toHaveTextContent('Login with GitHub — members of acme/ops');
  await expect.element(dialog).toHaveTextContent('anyone reaches the route');
  await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
  expect(callsOf(bridge, 'api.httpsEdgeRoutes.oauth.delete')).toEqual([]);
  await userEvent.click(page.getByRole('button', { name: 'Remove OAuth' }));
  await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Remove OAuth' }));
  await expect.poll(() => callsOf(bridge, 'api.httpsEdgeRoutes.oauth.delete').length).toBe(1);
});

it('shows what uses a backend, and that the API refuses its delete while it is used', async () => {
  window.location.hash = `#/backends/httpResponseBackends/${HELLO.id}`;
  const bridge = backendsBridge({
    'api.httpsEdges.listAll': () => [ROUTE_EDGE],
    'api.httpResponseBackends.delete': () => {
      throw new BridgeCallError({
        code: 'ERR_SERVICE_306',
        message: `"${HELLO.id}" is still used by "${PRIMARY.id}"`,
        status: 409,
      });
    },
  });
  render(App, { bridge });
  const usedBy = page.getByRole('region', { name: 'Used by' });
  await expect.poll(() => usedBy.getByRole('listitem').elements().length).toBe(2);
  await expect
    .element(usedBy.getByRole('link', { name: 'Primary then hello' }))
    .toHaveAttribute('href', `#/backends/failoverBackends/${PRIMARY.id}`);
  await expect.element(usedBy).toHaveTextContent('HTTPS edge edghts_Edge1 (route /api)');
  await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
  await expect
    .element(page.getByRole('dialog'))
    .toHaveTextContent(
      "In use by HTTPS edge edghts_Edge1 (route /api); failover backend 'Primary then hello': the API refuses to delete it while it is in use.",
    );
  // Asked anyway, the API's refusal names both by kind and name, linked, and says the way out.
  await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
  const refusal = page.getByRole('alert');
  await expect
    .element(refusal)
    .toHaveTextContent(
      "HTTP response backend 'hello' is still used by failover backend 'Primary then hello'",
    );
  await expect
    .element(refusal)
    .toHaveTextContent("Remove it from failover backend 'Primary then hello' first.");
  expect(refusal.element().textContent).not.toContain(PRIMARY.id);
  await expect
    .element(refusal.getByRole('link', { name: "failover backend 'Primary then hello'" }).first())
    .toHaveAttribute('href', `#/backends/failoverBackends/${PRIMARY.id}`);
});

function session(id: string, credential: string): TunnelSession {
  return {
    id,
    uri: `${URI}/tunnel_sessions/${id}`,
    agent_version: '3.1.0',
    credential: ref(credential, 'credentials'),
    ip: '203.0.113.7',
    metadata: `agent ${id}`,
    os: 'linux',
    region: 'eu',
    started_at: CREATED,
    transport: 'service/v2',
  };
}

const credential = (id: string) =>
  item(id, 'credentials', { acl: [], owner_id: 'usr_1', token: null });
const SESSIONS = [
  session('ts_A1', 'cr_Used1'),
  session('ts_B1', 'cr_Used1'),
  session('ts_C1', 'cr_Used1'),
  session('ts_D1', 'cr_Other1'),
];

function credentialsBridge(credentials: ReturnType<typeof credential>[]) {
  return scriptedBridge({
    'api.credentials.list': listOf('credentials', credentials),
    'api.credentials.get': () => credentials[0],
    'sessions.snapshot': () => ({
      paused: false,
      profiles: [
        {
          profileId: 'prf_local0001',
          health: 'ok',
          healthReason: null,
          sessions: SESSIONS,
          lastPollAt: 1,
          polls: 1,
          pages: 1,
          intervalMs: 1000,
        },
      ],
    }),
  });
}

it('lists the online agents of a credential, and says they will be cut off when it is deleted', async () => {
  window.location.hash = '#/credentials/credentials/cr_Used1';
  render(App, { bridge: credentialsBridge([credential('cr_Used1')]) });
  const usedBy = page.getByRole('region', { name: 'Used by' });
  await expect.element(usedBy).toHaveTextContent('3 online agents connected with this');
  await expect.poll(() => usedBy.getByRole('listitem').elements().length).toBe(3);
  await expect
    .element(usedBy.getByRole('link', { name: 'agent ts_A1' }))
    .toHaveAttribute('href', '#/sessions?session=ts_A1');
  await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
  await expect
    .element(page.getByRole('dialog'))
    .toHaveTextContent('3 online agents use this credential and will be disconnected.');
});

it('adds up the agents of every credential selected for deletion', async () => {
  window.location.hash = '#/credentials';
  const ids = ['cr_Used1', 'cr_Other1', 'cr_Idle1'];
  render(App, { bridge: credentialsBridge(ids.map(credential)) });
  for (const id of ids) await userEvent.click(page.getByRole('checkbox', { name: `Select ${id}` }));
  await userEvent.click(page.getByRole('button', { name: 'Delete 3 selected' }));
  await expect
    .element(page.getByRole('dialog'))
    .toHaveTextContent('4 online agents use these credentials and will be disconnected.');
});

it('names a resource in its heading by its description, or its kind and a short id, the id beside', async () => {
  window.location.hash = `#/backends/httpResponseBackends/${HELLO.id}`;
  render(App, { bridge: backendsBridge({ 'api.tunnelGroupBackends.get': () => OFFICE }) });
  const heading = page.getByRole('heading', { level: 2 });
  await expect.element(heading).toHaveTextContent(`hello ${HELLO.id}`);
  await expect.element(heading.getByText(HELLO.id)).toBeVisible();
  await expect
    .element(page.getByRole('navigation', { name: 'Breadcrumb' }))
    .toHaveTextContent('HTTP response backends › hello');

  window.location.hash = `#/backends/tunnelGroupBackends/${OFFICE.id}`;
  await expect.element(heading).toHaveTextContent(`Tunnel group backend bkdtg_Offi… ${OFFICE.id}`);
});

it('gives the exact local time of each row’s creation on hover, not the API’s UTC', async () => {
  window.location.hash = '#/credentials';
  render(App, { bridge: credentialsBridge([credential('cr_Idle1')]) });
  const created = page.getByRole('row').filter({ hasText: 'cr_Idle1' }).getByRole('cell').last();
  await expect.element(created).toHaveTextContent(timeWords(CREATED));
  const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' }).format(
    new Date(CREATED),
  );
  await expect.element(created).toHaveAttribute('title', exact);
});

it('sets what a delete breaks apart from the question, emphasized', async () => {
  window.location.hash = '#/credentials/credentials/cr_Used1';
  render(App, { bridge: credentialsBridge([credential('cr_Used1')]) });
  await expect.element(page.getByRole('region', { name: 'Used by' })).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
  const dialog = page.getByRole('dialog');
  const impact = dialog.getByText('3 online agents use this credential and will be disconnected.', {
    exact: true,
  });
  await expect.element(impact).toBeVisible();
  const paragraph = impact.element() as HTMLElement;
  expect(paragraph.tagName).toBe('P');
  expect(Number(getComputedStyle(paragraph).fontWeight)).toBeGreaterThanOrEqual(600);
  await expect
    .element(
      dialog.getByText('Delete tunnel credential cr_Used1? This cannot be undone.', {
        exact: true,
      }),
    )
    .toBeVisible();
});

it("fits an 800×600 window: a route's actions fold into one menu", async () => {
  await page.viewport(800, 600);
  window.location.hash = `#/edges/httpsEdges/${ROUTE_EDGE.id}`;
  render(App, { bridge: backendsBridge({ 'api.httpsEdges.get': () => ROUTE_EDGE }) });
  const row = page.getByRole('row').filter({ hasText: ROUTE.id });
  const menuButton = row.getByRole('button', { name: `Actions for route ${ROUTE.id}` });
  await expect.element(menuButton).toBeVisible();
  await expect
    .element(row.getByRole('button', { name: `Edit route ${ROUTE.id}` }))
    .not.toBeInTheDocument();
  expect(menuButton.element().closest('td')?.getBoundingClientRect().height).toBeLessThan(48);
  await menuButton.click();
  const modules = page
    .getByRole('menu', { name: `Actions for route ${ROUTE.id}` })
    .getByRole('menuitemcheckbox', { name: 'Modules' });
  await expect.element(modules).toHaveFocus();
  await userEvent.keyboard('{Enter}');
  await expect.element(page.getByRole('region', { name: 'Modules of route /api' })).toBeVisible();
  await menuButton.click();
  await expect.element(modules).toHaveAttribute('aria-checked', 'true');
  await userEvent.keyboard('{Escape}');
  await expect.element(menuButton).toHaveFocus();

  await page.viewport(1280, 800);
  await expect.element(row.getByRole('button', { name: `Edit route ${ROUTE.id}` })).toBeVisible();
  await expect.element(menuButton).not.toBeInTheDocument();
});
