import { render } from '@testing-library/svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { ExposePlan, ExposeResult } from '../../shared/app/ipc/expose.ts';
import App from '../../renderer/src/App.svelte';
import { session } from '../support/tunnel-sessions.ts';
import { watched } from './support/agents.ts';
import { freshWindow, listOf } from './support/records.ts';
import { scriptedBridge, SOME_PROFILES, type ScriptedAnswers } from './support/scripted-bridge.ts';

/*
 * "Expose a service" in the window: the steps keep what was typed, a refusal lands at its field
 * on its step, the plan is read before Create, and the agent's arrival says the service is live.
 * Core's side (the plan, the run and its undo) is tests/integration/core/expose.
 */

beforeEach(freshWindow);

const PLAN: ExposePlan = {
  steps: [
    { kind: 'backend', words: "Create a tunnel group backend 'web' (labels service=web)" },
    { kind: 'edge', words: 'Create an HTTPS edge on web.example.com:443' },
    {
      kind: 'route',
      words:
        'Create its route / to that backend, with sign-in through OpenID Connect at https://idp.example.com',
    },
    {
      kind: 'credential',
      words: 'Create a credential for the agent, allowed to bind service=web only',
    },
  ],
  credential: { kind: 'create' },
  url: 'https://web.example.com',
  binds: ['service=web'],
};

const CREATED: ExposeResult = {
  outcome: 'created',
  url: 'https://web.example.com',
  binds: ['service=web'],
  backendId: 'bkdtg_1',
  edgeId: 'edghts_1',
  routeId: 'edghtsrt_1',
  credential: { id: 'cr_new1', name: 'Agents serving web', token: 'tok_s3cret' },
};

function edges(answers: ScriptedAnswers) {
  window.location.hash = '#/edges';
  const bridge = scriptedBridge({
    'api.tlsEdges.list': listOf('tls_edges'),
    'api.httpsEdges.list': listOf('https_edges'),
    'sessions.snapshot': () => watched(SOME_PROFILES.activeId ?? ''),
    'expose.suggest': () => ({ hostport: 'web.example.com:443' }),
    'expose.plan': () => PLAN,
    ...answers,
  });
  render(App, { bridge });
  return bridge;
}

const dialog = () => page.getByRole('dialog', { name: 'Expose a service' });
const next = () => dialog().getByRole('button', { name: 'Next' }).click();

async function toProtection() {
  await page.getByRole('button', { name: 'Expose a service…' }).click();
  await dialog().getByLabelText('Name (required)').fill('web');
  await userEvent.tab();
  await expect
    .element(dialog().getByLabelText('Domain and port (required)'))
    .toHaveValue('web.example.com:443');
  await next();
  await expect
    .element(dialog().getByRole('textbox', { name: 'label key 1' }))
    .toHaveValue('service');
  await expect.element(dialog().getByRole('textbox', { name: 'label value 1' })).toHaveValue('web');
  // Back keeps what was typed.
  await dialog().getByRole('button', { name: 'Back' }).click();
  await expect.element(dialog().getByLabelText('Name (required)')).toHaveValue('web');
  await next();
  await next();
}

it('walks from a name to a live service, checking OIDC at its fields before any call', async () => {
  const bridge = edges({ 'expose.run': () => CREATED });
  await toProtection();
  await dialog()
    .getByRole('radio', { name: /OpenID Connect/ })
    .click();
  await dialog().getByRole('button', { name: 'Review' }).click();
  await expect.element(dialog().getByText('Issuer URL is required')).toBeVisible();
  expect(bridge.argsOf('expose.plan')).toBeUndefined();
  await dialog().getByLabelText('Issuer URL (required)').fill('https://idp.example.com');
  await dialog().getByLabelText('Client id (required)').fill('burrow');
  await dialog().getByLabelText('Client secret (required)').fill('oidc-s3cret');
  await dialog().getByRole('button', { name: 'Review' }).click();

  await expect
    .element(dialog().getByRole('list', { name: 'Plan' }))
    .toHaveTextContent(/its route \/ to that backend/);
  expect(bridge.argsOf('expose.plan')).toEqual([
    {
      name: 'web',
      hostport: 'web.example.com:443',
      labels: { service: 'web' },
      protection: {
        oidc: {
          issuer: 'https://idp.example.com',
          client_id: 'burrow',
          client_secret: 'oidc-s3cret',
        },
      },
    },
  ]);
  await dialog().getByRole('button', { name: 'Create' }).click();

  const started = page.getByRole('dialog', { name: 'Start the agent' });
  await expect
    .element(started.getByText(/^npm run agent /))
    .toHaveTextContent(
      'npm run agent -- --api-url http://127.0.0.1:4040 --authtoken tok_s3cret --bind service=web',
    );
  await expect.element(started.getByRole('status')).toHaveTextContent(/Waiting for an agent/);
  expect(started.element().textContent).not.toContain('oidc-s3cret');
  // The token is shown only now: Escape asks before it goes, while no agent has used it.
  await userEvent.keyboard('{Escape}');
  await page.getByRole('button', { name: 'Back to the agent command' }).click();
  await expect.element(started.getByText(/^npm run agent /)).toBeVisible();
  const snapshot = watched(SOME_PROFILES.activeId ?? '');
  const [profile] = snapshot.profiles;
  if (profile)
    profile.sessions = [session({ credential: { id: 'cr_new1', uri: 'u' }, metadata: 'web-box' })];
  bridge.emit('sessions.changed', snapshot);
  await expect
    .element(started.getByRole('status'))
    .toHaveTextContent(/Your service is live at https:\/\/web\.example\.com/);
  await started.getByRole('button', { name: 'Done' }).click();
  await expect.element(started).not.toBeInTheDocument();
});

it('goes back to the step of the field core refuses, and says when a run left nothing', async () => {
  let refuse = true;
  edges({
    'expose.plan': () => {
      if (!refuse) return PLAN;
      refuse = false;
      throw Object.assign(new Error('hostport: "hostports[0]" must be "<host>:<port>"'), {
        code: 'ERR_SERVICE_215',
        field: 'hostport',
      });
    },
    'expose.run': () => ({
      outcome: 'failed',
      step: PLAN.steps[2]?.words ?? '',
      code: 'ERR_SERVICE_223',
      message: 'no IP policy ipp_1',
      leftBehind: [],
    }),
  });
  await toProtection();
  // What was typed is not dropped by a stray Escape.
  await userEvent.keyboard('{Escape}');
  await page.getByRole('button', { name: 'Keep editing' }).click();
  await dialog().getByRole('button', { name: 'Review' }).click();
  const hostport = dialog().getByLabelText('Domain and port (required)');
  await expect.element(hostport).toHaveAttribute('aria-invalid', 'true');
  await expect.element(dialog().getByText(/must be "<host>:<port>"/)).toBeVisible();
  await next();
  await next();
  await dialog().getByRole('button', { name: 'Review' }).click();
  await dialog().getByRole('button', { name: 'Create' }).click();
  await expect
    .element(dialog().getByRole('alert'))
    .toHaveTextContent(/failed: no IP policy ipp_1.*Nothing was left behind/);
});

it('says at step 1, in words, a domain without its port, and warns of an address an edge serves', async () => {
  const bridge = edges({
    'api.httpsEdges.listAll': () => [
      {
        id: 'edghts_wiki01',
        uri: 'u',
        created_at: '2026-11-01T00:00:00Z',
        description: 'wiki',
        metadata: '',
        hostports: ['Wiki.example.com:443'],
        mutual_tls: null,
        tls_termination: null,
        routes: [],
      },
    ],
    'api.tlsEdges.listAll': () => [],
  });
  await page.getByRole('button', { name: 'Expose a service…' }).click();
  await dialog().getByLabelText('Name (required)').fill('wiki');
  await userEvent.tab();
  const hostport = dialog().getByLabelText('Domain and port (required)');
  // The suggestion first: what is typed over it is the person's.
  await expect.element(hostport).toHaveValue('web.example.com:443');
  await hostport.fill('wiki.example.com');
  await next();
  await expect.element(dialog().getByRole('heading', { name: 'Where it is served' })).toBeVisible();
  await expect.element(hostport).toHaveAttribute('aria-invalid', 'true');
  await expect
    .element(hostport)
    .toHaveAccessibleDescription(
      'Domain and port must be "<host>:<port>" with a port from 1 to 65535, such as wiki.example.com:443',
    );
  expect(bridge.argsOf('expose.plan')).toBeUndefined();

  // Whatever the host's case, an address one of the profile's edges serves is said, not refused;
  // what was wrong before goes as the field changes.
  await hostport.fill('wiki.example.com:443');
  await expect.element(hostport).not.toHaveAttribute('aria-invalid');
  await expect.element(dialog().getByText(/must be "<host>:<port>"/)).not.toBeInTheDocument();
  await expect
    .element(dialog().getByText("HTTPS edge 'wiki' already serves this address"))
    .toBeVisible();
  await next();
  await expect
    .element(dialog().getByRole('heading', { name: 'Which agents serve it' }))
    .toBeVisible();
});

it('is offered where a new account has no agent yet', async () => {
  window.location.hash = '#/sessions';
  render(App, {
    bridge: scriptedBridge({ 'sessions.snapshot': () => watched(SOME_PROFILES.activeId ?? '') }),
  });
  await expect.element(page.getByText(/^No agent is online/)).toBeVisible();
  await page.getByRole('button', { name: 'Expose a service…' }).click();
  await expect.element(dialog().getByLabelText('Name (required)')).toBeVisible();
});
