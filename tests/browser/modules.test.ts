import { render } from '@testing-library/svelte';
import { beforeEach, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { BridgeCallError } from '../../shared/app/ipc/bridge.ts';
import { listPage, URI } from './support/records.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

/*
 * The route module forms: each checks its body with the module's write schema before the PUT,
 * shows the API's refusal beside the field it names, and shapes what the API nests.
 */

const ROUTE = 'edghtsrt_1';
const EDGE = 'edghts_1';

function edgeWith(route: Record<string, unknown> = {}) {
  const base = { created_at: '2026-01-01T00:00:00Z', description: '', metadata: '' };
  return {
    ...base,
    id: EDGE,
    uri: `${URI}/edges/https/${EDGE}`,
    hostports: ['app.example.com:443'],
    mutual_tls: null,
    tls_termination: null,
    routes: [
      {
        ...base,
        id: ROUTE,
        uri: `${URI}/edges/https/${EDGE}/routes/${ROUTE}`,
        edge_id: EDGE,
        match_type: 'path_prefix',
        match: '/api',
        ...route,
      },
    ],
  };
}

beforeEach(() => {
  localStorage.clear();
  window.location.hash = `#/edges/httpsEdges/${EDGE}`;
});

async function openModules(answers: Parameters<typeof scriptedBridge>[0], route = {}) {
  const edge = edgeWith(route);
  const bridge = scriptedBridge({
    'api.httpsEdges.list': () => listPage('https_edges', [edge]),
    'api.httpsEdges.get': () => edge,
    'api.httpsEdgeRoutes.get': () => edge.routes[0],
    ...answers,
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: `Modules of route ${ROUTE}` }));
  return bridge;
}

const puts = (bridge: ReturnType<typeof scriptedBridge>, module: string) =>
  bridge.calls.filter((c) => c.name === `api.httpsEdgeRoutes.${module}.replace`);
const bodyOf = (call: { args: unknown[] } | undefined) =>
  (call?.args[0] as { body: Record<string, unknown> } | undefined)?.body;

it('refuses more than 128 buckets and a threshold over 1 before the call', async () => {
  const bridge = await openModules({});
  await userEvent.click(page.getByRole('button', { name: 'Set Circuit breaker' }));
  const dialog = page.getByRole('dialog');
  await userEvent.fill(dialog.getByRole('spinbutton', { name: 'Buckets' }), '129');
  await userEvent.click(dialog.getByRole('button', { name: 'Set Circuit breaker' }));
  await expect.element(dialog.getByText(/^Buckets .* 128$/)).toBeVisible();
  await userEvent.fill(dialog.getByRole('spinbutton', { name: 'Buckets' }), '20');
  await userEvent.fill(dialog.getByRole('spinbutton', { name: 'Error threshold' }), '50');
  await userEvent.click(dialog.getByRole('button', { name: 'Set Circuit breaker' }));
  await expect.element(dialog.getByText(/^Error threshold .* 0 and 1/)).toBeVisible();
  expect(puts(bridge, 'circuit_breaker')).toEqual([]);
});

it('asks a webhook secret of every provider but SNS, which gets no secret field', async () => {
  const bridge = await openModules({
    'api.httpsEdgeRoutes.webhook_verification.replace': () => ({}),
  });
  await userEvent.click(page.getByRole('button', { name: 'Set Webhook verification' }));
  const dialog = page.getByRole('dialog');
  await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Provider' }), 'github');
  await userEvent.click(dialog.getByRole('button', { name: 'Set Webhook verification' }));
  await expect.element(dialog.getByText('Signing secret is required')).toBeVisible();
  expect(puts(bridge, 'webhook_verification')).toEqual([]);

  await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Provider' }), 'sns');
  await expect.element(dialog.getByLabelText(/^Signing secret/)).not.toBeInTheDocument();
  await userEvent.click(dialog.getByRole('button', { name: 'Set Webhook verification' }));
  await expect.poll(() => puts(bridge, 'webhook_verification').length).toBe(1);
  expect(bodyOf(puts(bridge, 'webhook_verification')[0])).toEqual({
    enabled: true,
    provider: 'sns',
  });
});

it('takes an OAuth client id only with its secret, and nests the one chosen provider', async () => {
  const bridge = await openModules({ 'api.httpsEdgeRoutes.oauth.replace': () => ({}) });
  await userEvent.click(page.getByRole('button', { name: 'Set OAuth' }));
  const dialog = page.getByRole('dialog');
  await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Provider' }), 'google');
  // Teams and organizations are GitHub's alone.
  await expect.element(dialog.getByRole('group', { name: /Teams/ })).not.toBeInTheDocument();
  await userEvent.fill(dialog.getByRole('textbox', { name: 'Client ID' }), 'my-app');
  await userEvent.click(dialog.getByRole('button', { name: 'Set OAuth' }));
  await expect
    .element(dialog.getByText('Client secret is required when Client ID is set'))
    .toBeVisible();
  expect(puts(bridge, 'oauth')).toEqual([]);

  await userEvent.fill(dialog.getByLabelText('Client secret', { exact: true }), 's3cret');
  await userEvent.click(dialog.getByRole('button', { name: 'Set OAuth' }));
  await expect.poll(() => puts(bridge, 'oauth').length).toBe(1);
  expect(bodyOf(puts(bridge, 'oauth')[0])).toMatchObject({
    enabled: true,
    provider: { google: { client_id: 'my-app', client_secret: 's3cret' } },
  });
});

const OIDC = {
  enabled: true,
  issuer: 'https://id.example.com',
  client_id: 'a',
  client_secret: 'oidc-s3cret',
  scopes: [],
  options_passthrough: false,
  cookie_prefix: 'service.',
  inactivity_timeout: 0,
  maximum_duration: 0,
};

it('masks the secrets modules echo back until revealed, and copies them whole', async () => {
  const written = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
  await openModules(
    {},
    {
      webhook_verification: { enabled: true, provider: 'github', secret: 'hook-s3cret' },
      oauth: {
        enabled: true,
        // OAuth nests its secret under the provider: masked there too.
        provider: { github: { client_id: 'app', client_secret: 'gh-s3cret' }, google: null },
      },
    },
  );
  const webhook = page.getByRole('article', { name: 'Webhook verification' });
  const oauth = page.getByRole('article', { name: 'OAuth' });
  await expect.element(webhook.getByText('Checks the signature of GitHub webhooks')).toBeVisible();
  await expect.element(oauth.getByText('app', { exact: true })).toBeVisible();
  for (const secret of ['hook-s3cret', 'gh-s3cret'])
    expect(document.body.textContent).not.toContain(secret);

  const reveal = webhook.getByRole('button', { name: 'Reveal signing secret' });
  await expect.element(reveal).toHaveAccessibleName('Reveal signing secret');
  await userEvent.click(reveal);
  await expect.element(webhook.getByText('hook-s3cret')).toBeVisible();
  expect(document.body.textContent).not.toContain('gh-s3cret');
  await userEvent.click(webhook.getByRole('button', { name: 'Hide signing secret' }));
  await expect.element(webhook.getByText('hook-s3cret')).not.toBeInTheDocument();

  await userEvent.click(oauth.getByRole('button', { name: 'Copy client secret' }));
  expect(written).toHaveBeenCalledWith('gh-s3cret');
  expect(document.body.textContent).not.toContain('gh-s3cret');
  written.mockRestore();
});

it('edits a secret in a password input, shown only when asked', async () => {
  await openModules({}, { oidc: OIDC });
  await userEvent.click(page.getByRole('button', { name: 'Set OpenID Connect' }));
  const dialog = page.getByRole('dialog');
  const input = dialog.getByLabelText(/^Client secret/);
  await expect.element(input).toHaveAttribute('type', 'password');
  await expect.element(input).toHaveValue('oidc-s3cret');
  await userEvent.click(dialog.getByRole('button', { name: 'Reveal client secret' }));
  await expect.element(input).toHaveAttribute('type', 'text');
  await userEvent.click(dialog.getByRole('button', { name: 'Hide client secret' }));
  await expect.element(input).toHaveAttribute('type', 'password');
});

it('disables the other auth modules while one is set, and says why', async () => {
  await openModules({}, { oidc: OIDC });
  const setOauth = page.getByRole('button', { name: 'Set OAuth' });
  await expect.element(setOauth).toBeDisabled();
  await expect.element(setOauth).toHaveAccessibleDescription(/remove OpenID Connect first/);
  await expect.element(page.getByRole('button', { name: 'Set SAML' })).toBeDisabled();
  await expect.element(page.getByRole('button', { name: 'Remove OpenID Connect' })).toBeEnabled();
});

it('puts the API refusal of an OIDC issuer beside the issuer field', async () => {
  await openModules({
    'api.httpsEdgeRoutes.oidc.replace': () => {
      throw new BridgeCallError({
        code: 'ERR_SERVICE_7133',
        message: 'issuer did not answer discovery',
        field: 'issuer',
        operationId: 'op_1',
      });
    },
  });
  await userEvent.click(page.getByRole('button', { name: 'Set OpenID Connect' }));
  const dialog = page.getByRole('dialog');
  await userEvent.fill(
    dialog.getByRole('textbox', { name: /Issuer URL/ }),
    'https://id.example.com',
  );
  await userEvent.fill(dialog.getByRole('textbox', { name: /Client ID/ }), 'a');
  await userEvent.fill(dialog.getByLabelText(/^Client secret/), 'b');
  await userEvent.click(dialog.getByRole('button', { name: 'Set OpenID Connect' }));
  await expect.element(dialog.getByText('Issuer URL did not answer discovery')).toBeVisible();
  await expect.element(dialog.getByRole('alert').getByText('ERR_SERVICE_7133')).toBeVisible();
});
