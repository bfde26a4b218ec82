import { render } from '@testing-library/svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { freshWindow, listOf, record } from './support/records.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

/*
 * The certificate authorities mutual TLS trusts: their tab beside the edges (created from a PEM,
 * read as subject and expiry, what uses them), and the mutual TLS picker that makes one on the
 * spot.
 */

beforeEach(freshWindow);

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----';

const CA = record('ca_clients', 'certificate_authorities', {
  description: 'client devices',
  ca_pem: PEM,
  subject_common_name: 'Devices Root CA',
  not_before: '2026-01-01T00:00:00Z',
  not_after: '2031-01-01T00:00:00Z',
  key_usages: ['cert_sign'],
  extended_key_usages: [],
});

const TRUSTING = { enabled: true, certificate_authorities: [{ id: CA.id, uri: CA.uri }] };

/** A TLS edge that trusts `CA` in its mutual TLS module. */
const EDGE = record('edgtls_mtls', 'edges/tls', {
  description: 'door',
  hostports: ['door.example.com:443'],
  backend: null,
  ip_restriction: null,
  mutual_tls: TRUSTING,
  tls_termination: null,
});

it('creates a certificate authority from a PEM, then lists it by subject and expiry', async () => {
  window.location.hash = '#/edges/certificateAuthorities';
  let made = false;
  const bridge = scriptedBridge({
    'api.certificateAuthorities.list': () => listOf('certificate_authorities', made ? [CA] : [])(),
    'api.certificateAuthorities.create': () => ((made = true), CA),
  });
  render(App, { bridge });
  await expect.element(page.getByRole('link', { name: 'Certificate authorities' })).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'New certificate authority' }));
  const dialog = page.getByRole('dialog');
  await userEvent.fill(dialog.getByRole('textbox', { name: /CA certificate \(PEM\)/ }), PEM);
  await userEvent.click(dialog.getByRole('button', { name: 'Create certificate authority' }));
  await expect.element(dialog).not.toBeInTheDocument();
  expect(bridge.argsOf('api.certificateAuthorities.create')?.[0]).toEqual({
    body: { ca_pem: PEM },
  });
  const row = page.getByRole('row', { name: /client devices/ });
  await expect.element(row).toHaveTextContent('Devices Root CA');
  await expect.element(page.getByRole('columnheader', { name: 'Expires' })).toBeVisible();
});

it('says which edges trust a certificate authority in their mutual TLS module', async () => {
  window.location.hash = `#/edges/certificateAuthorities/${CA.id}`;
  const bridge = scriptedBridge({
    'api.certificateAuthorities.list': listOf('certificate_authorities', [CA]),
    'api.certificateAuthorities.get': () => CA,
    'api.tlsEdges.listAll': () => [EDGE],
    'api.httpsEdges.listAll': () => [],
  });
  render(App, { bridge });
  await expect.element(page.getByText('Devices Root CA')).toBeVisible();
  const usedBy = page.getByRole('region', { name: 'Used by' });
  await expect
    .element(usedBy.getByRole('link', { name: 'door' }))
    .toHaveAttribute('href', `#/edges/tlsEdges/${EDGE.id}`);
  await expect.element(usedBy).toHaveTextContent('(Mutual TLS)');
  // Read from the edges' whole lists, never one call per edge.
  expect(bridge.calls.filter((c) => c.name === 'api.tlsEdges.get')).toEqual([]);
});

it('creates a certificate authority from the mutual TLS picker, and picks it', async () => {
  const bare = { ...EDGE, mutual_tls: null };
  window.location.hash = `#/edges/tlsEdges/${EDGE.id}`;
  let made = false;
  const bridge = scriptedBridge({
    'api.tlsEdges.list': listOf('tls_edges', [bare]),
    'api.tlsEdges.get': () => bare,
    'api.certificateAuthorities.listAll': () => (made ? [CA] : []),
    'api.certificateAuthorities.create': () => ((made = true), CA),
    'api.tlsEdges.mutual_tls.replace': () => TRUSTING,
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'Set Mutual TLS' }));
  const form = page.getByRole('dialog', { name: /Mutual TLS/ });
  await userEvent.click(form.getByRole('button', { name: 'New certificate authority…' }));
  const create = page.getByRole('dialog', { name: 'New certificate authority' });
  await userEvent.fill(create.getByRole('textbox', { name: /CA certificate \(PEM\)/ }), PEM);
  await userEvent.click(create.getByRole('button', { name: 'Create certificate authority' }));
  await expect.element(create).not.toBeInTheDocument();
  // Back in the module's form, the new one chosen, named as people know it.
  const chosen = form.getByRole('list', { name: 'Trusted CAs' });
  await expect.element(chosen).toHaveTextContent('client devices');
  await expect.element(form.getByRole('combobox', { name: 'Trusted CAs to add' })).toHaveFocus();
  await userEvent.click(form.getByRole('button', { name: 'Set Mutual TLS' }));
  await expect
    .poll(() => bridge.argsOf('api.tlsEdges.mutual_tls.replace')?.[0])
    .toEqual({
      params: { id: EDGE.id },
      body: { enabled: true, certificate_authority_ids: [CA.id] },
    });
});
