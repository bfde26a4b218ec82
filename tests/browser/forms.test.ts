import { render } from '@testing-library/svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { BridgeCallError } from '../../shared/app/ipc/bridge.ts';
import { freshWindow, listOf, record as item } from './support/records.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

/*
 * The resource forms as a person meets them: every problem at once beside its field, in plain
 * words, gone as soon as the field is right; the API's refusal on the field it names with its
 * code once at the top; and a form with changes that asks before anything drops them.
 */

const EDGE = 'edghts_1';
const ROUTE = 'edghtsrt_1';
const route = item(ROUTE, `edges/https/${EDGE}/routes`, { match_type: 'path_prefix', match: '/' });
const edge = item(EDGE, 'edges/https', {
  hostports: ['app.example.com:443'],
  mutual_tls: null,
  tls_termination: null,
  routes: [route],
});

beforeEach(freshWindow);

function open(hash: string, answers: Parameters<typeof scriptedBridge>[0] = {}) {
  window.location.hash = hash;
  const bridge = scriptedBridge(answers);
  render(App, { bridge });
  return bridge;
}

async function routeModule(label: string, answers: Parameters<typeof scriptedBridge>[0] = {}) {
  const bridge = open(`#/edges/httpsEdges/${EDGE}`, {
    'api.httpsEdges.list': listOf('https_edges', [edge]),
    'api.httpsEdges.get': () => edge,
    'api.httpsEdgeRoutes.get': () => route,
    ...answers,
  });
  await userEvent.click(page.getByRole('button', { name: `Modules of route ${ROUTE}` }));
  await userEvent.click(page.getByRole('button', { name: `Set ${label}` }));
  return bridge;
}

it('shows every problem at once in plain words, focuses the first, and clears each once fixed', async () => {
  const bridge = await routeModule('Circuit breaker');
  const dialog = page.getByRole('dialog');
  const buckets = dialog.getByRole('spinbutton', { name: 'Buckets' });
  const threshold = dialog.getByRole('spinbutton', { name: 'Error threshold' });
  await userEvent.fill(buckets, '200');
  await userEvent.fill(threshold, '50');
  await userEvent.click(dialog.getByRole('button', { name: 'Set Circuit breaker' }));

  const bucketsProblem = dialog.getByText('Buckets must be a whole number from 1 to 128');
  const thresholdProblem = dialog.getByText(
    'Error threshold must be a fraction between 0 and 1, like 0.5',
  );
  await expect.element(bucketsProblem).toBeVisible();
  await expect.element(thresholdProblem).toBeVisible();
  await expect.element(buckets).toHaveFocus();
  await expect.element(buckets).toHaveAttribute('aria-invalid', 'true');
  await expect
    .element(dialog.getByText(/error_threshold_percentage|must be at most/))
    .not.toBeInTheDocument();

  await userEvent.fill(buckets, '20');
  await expect.element(bucketsProblem).not.toBeInTheDocument();
  await expect.element(thresholdProblem).toBeVisible();
  await userEvent.fill(threshold, '0.5');
  await expect.element(thresholdProblem).not.toBeInTheDocument();
  expect(bridge.calls.filter((c) => c.name.endsWith('circuit_breaker.replace'))).toEqual([]);
});

it('says an empty required public key is required, not that it is malformed', async () => {
  open('#/credentials/sshCredentials', {
    'api.sshCredentials.list': listOf('ssh_credentials'),
  });
  await userEvent.click(page.getByRole('button', { name: 'New SSH credential' }));
  await userEvent.click(page.getByRole('button', { name: 'Create SSH credential' }));
  const dialog = page.getByRole('dialog');
  await expect.element(dialog.getByText('Public key is required')).toBeVisible();
  await expect.element(dialog.getByText(/authorized_keys/)).not.toBeInTheDocument();
});

it('asks for at least one pick where a list of picks is left empty, in words', async () => {
  open('#/backends/failoverBackends', {
    'api.failoverBackends.list': listOf('backends'),
    'api.httpResponseBackends.listAll': () => [],
    'api.tunnelGroupBackends.listAll': () => [],
    'api.failoverBackends.listAll': () => [],
  });
  await userEvent.click(page.getByRole('button', { name: 'New failover backend' }));
  await userEvent.click(page.getByRole('button', { name: 'Create failover backend' }));
  const dialog = page.getByRole('dialog');
  await expect.element(dialog.getByText('Choose one or more child backends')).toBeVisible();
  await expect.element(dialog.getByText('Child backends is required')).not.toBeInTheDocument();
});

it('puts the refusal on the entry it names, its code once at the top and no toast', async () => {
  const bridge = open('#/edges/tlsEdges', {
    'api.tlsEdges.list': listOf('tls_edges'),
    'api.tlsEdges.create': () => {
      throw new BridgeCallError({
        code: 'ERR_SERVICE_216',
        message: '"hostports[0]" is already used by another edge',
        operationId: 'op_hostport1',
        status: 400,
        field: 'hostports[0]',
      });
    },
  });
  await userEvent.click(page.getByRole('button', { name: 'New TLS edge' }));
  await userEvent.click(page.getByRole('button', { name: 'Add hostport', exact: true }));
  const hostport = page.getByRole('textbox', { name: 'Hostport 1' });
  await userEvent.fill(hostport, 'app.example.com:443');
  await userEvent.click(page.getByRole('button', { name: 'Create TLS edge' }));

  const dialog = page.getByRole('dialog');
  await expect
    .element(dialog.getByText('Hostport 1 is already used by another edge'))
    .toBeVisible();
  await expect.element(hostport).toHaveFocus();
  const alert = dialog.getByRole('alert');
  await expect.element(alert.getByText('ERR_SERVICE_216')).toBeVisible();
  await expect.element(alert.getByRole('button', { name: 'Copy operation id' })).toBeVisible();
  // Said once: not again in the alert, not in a toast.
  expect(page.getByText(/already used by another edge/).elements()).toHaveLength(1);
  const toasts = page.getByRole('region', { name: 'Messages' });
  await expect.element(toasts.getByText('ERR_SERVICE_216')).not.toBeInTheDocument();

  await userEvent.fill(hostport, 'other.example.com:443');
  await expect.element(dialog.getByText(/already used by another edge/)).not.toBeInTheDocument();
  await expect.element(alert).not.toBeInTheDocument();
  expect(bridge.calls.filter((c) => c.name === 'api.tlsEdges.create')).toHaveLength(1);
});

it('puts an OAuth team refusal on the team, not on the provider', async () => {
  await routeModule('OAuth', {
    'api.httpsEdgeRoutes.oauth.replace': () => {
      throw new BridgeCallError({
        code: 'ERR_SERVICE_7109',
        message: '"provider.github.teams[0]" is not a team of the organization',
        field: 'provider.github.teams[0]',
      });
    },
  });
  const dialog = page.getByRole('dialog');
  await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Provider' }), 'github');
  await userEvent.click(dialog.getByRole('button', { name: 'Add team', exact: true }));
  const team = dialog.getByRole('textbox', { name: 'Teams (org/team) 1' });
  await userEvent.fill(team, 'acme/ops');
  await userEvent.click(dialog.getByRole('button', { name: 'Set OAuth' }));
  await expect
    .element(dialog.getByText('Teams (org/team) 1 is not a team of the organization'))
    .toBeVisible();
  await expect.element(team).toHaveFocus();
});

it('offers a placeholder in selects, not the first option, and asks for a choice', async () => {
  const bridge = await routeModule('Webhook verification');
  const dialog = page.getByRole('dialog');
  const provider = dialog.getByRole('combobox', { name: 'Provider' });
  await expect.element(provider).toHaveValue('');
  await expect.element(provider.getByRole('option', { name: 'Choose…' })).toBeInTheDocument();
  await userEvent.click(dialog.getByRole('button', { name: 'Set Webhook verification' }));
  await expect.element(dialog.getByText('Provider is required')).toBeVisible();
  await expect.element(provider).toHaveFocus();
  expect(bridge.calls.filter((c) => c.name.endsWith('webhook_verification.replace'))).toEqual([]);
});

it('asks before Escape or Cancel drops a form with changes, and not when it has none', async () => {
  open('#/ip-policies', { 'api.ipPolicies.list': listOf('ip_policies') });
  const newPolicy = page.getByRole('button', { name: 'New IP policy' });
  await userEvent.click(newPolicy);
  await userEvent.keyboard('{Escape}');
  await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();

  await userEvent.click(newPolicy);
  const description = page.getByRole('textbox', { name: 'Description' });
  await userEvent.fill(description, 'office');
  await userEvent.keyboard('{Escape}');
  const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
  await expect.element(ask).toBeVisible();
  await userEvent.click(ask.getByRole('button', { name: 'Keep editing' }));
  await expect.element(ask).not.toBeInTheDocument();
  await expect.element(description).toHaveValue('office');

  // A second Escape with nothing touched in between still asks.
  await userEvent.keyboard('{Escape}');
  await expect.element(ask).toBeVisible();
  await userEvent.keyboard('{Escape}');
  await expect.element(ask).not.toBeInTheDocument();
  await userEvent.keyboard('{Escape}');
  await expect.element(ask).toBeVisible();
  await userEvent.click(ask.getByRole('button', { name: 'Discard' }));
  await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();

  await userEvent.click(newPolicy);
  await userEvent.fill(description, 'lab');
  await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
  await expect.element(ask).toBeVisible();
  await userEvent.click(ask.getByRole('button', { name: 'Discard' }));
  await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
});

it('asks before navigating away from a form with changes, and stays put when told to', async () => {
  open('#/ip-policies', {
    'api.ipPolicies.list': listOf('ip_policies'),
    'api.credentials.list': listOf('credentials'),
  });
  await userEvent.click(page.getByRole('button', { name: 'New IP policy' }));
  await userEvent.fill(page.getByRole('textbox', { name: 'Description' }), 'office');
  window.location.hash = '#/credentials';
  const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
  await expect.element(ask).toBeVisible();
  expect(window.location.hash).toBe('#/ip-policies');
  await userEvent.click(ask.getByRole('button', { name: 'Keep editing' }));
  await expect.element(page.getByRole('heading', { name: 'IP policies', level: 1 })).toBeVisible();
  await expect.element(page.getByRole('textbox', { name: 'Description' })).toHaveValue('office');

  window.location.hash = '#/credentials';
  await userEvent.click(ask.getByRole('button', { name: 'Discard' }));
  await expect
    .element(page.getByRole('heading', { name: 'Tunnel credentials', level: 2 }))
    .toBeVisible();
  expect(window.location.hash).toBe('#/credentials');
  await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
});

it('never offers a failover backend as its own child', async () => {
  const failover = item('bkdfo_self', 'backends/failover', { backends: [] });
  open('#/backends/failoverBackends/bkdfo_self', {
    'api.failoverBackends.list': listOf('backends', [failover]),
    'api.failoverBackends.get': () => failover,
    'api.failoverBackends.listAll': () => [failover, item('bkdfo_other', 'backends/failover')],
    'api.httpResponseBackends.listAll': () => [],
    'api.tunnelGroupBackends.listAll': () => [],
  });
  await userEvent.click(page.getByRole('button', { name: 'Edit' }));
  const pick = page.getByRole('combobox', { name: 'Child backends to add' });
  await expect
    .element(pick.getByRole('option', { name: 'failover backend bkdfo_other' }))
    .toBeInTheDocument();
  await expect.element(pick.getByRole('option', { name: /bkdfo_self/ })).not.toBeInTheDocument();
});
