import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import type { NotificationTarget } from '../../shared/app/notifications.ts';
import { notificationRoute, routeHref } from '../../shared/app/routes.ts';
import type { SavedCertificate } from '../../shared/app/ssh/results.ts';
import { session as someSession } from '../support/tunnel-sessions.ts';
import { agentsOf, someAgent, watched } from './support/agents.ts';
import { savedCertificate, SSH_FOLDER } from './support/saved-certificate.ts';
import { scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

/*
 * A notification's click opens the window at the address the shell makes for it: the window
 * shows that screen, with the profile, session or certificate it names pointed out.
 */

const WORK = 'prf_work00001';

function openAt(target: NotificationTarget) {
  window.location.hash = routeHref(notificationRoute(target));
}

function saved(id: string, name: string): SavedCertificate {
  return savedCertificate(name, { id, certificateId: `sshuc_${id}` });
}

/** A certificate's notification for `certId` clicked, with `certs` saved on this machine. */
function openCertificate(certId: string, certs: SavedCertificate[]) {
  openAt({ type: 'certificate', certId });
  const bridge = scriptedBridge({
    'ssh.defaultFolder': () => SSH_FOLDER,
    'api.sshCertificateAuthorities.listAll': () => [],
    'ssh.listSaved': () => certs,
    'ssh.due': () => [],
  });
  render(App, { bridge });
}

function session(id: string): TunnelSession {
  return someSession({
    id,
    uri: `https://api.example.com/tunnel_sessions/${id}`,
    credential: { id: 'cr_1', uri: 'https://api.example.com/credentials/cr_1' },
    ip: '10.0.0.7',
    metadata: `box-${id}`,
    region: 'eu',
    started_at: new Date().toISOString(),
  });
}

it("a profile's notification (its key is missing) opens Settings with that profile pointed out", async () => {
  openAt({ type: 'profile', profileId: WORK });
  expect(window.location.hash).toBe(`#/settings?profile=${WORK}`);
  render(App, { bridge: scriptedBridge() });
  await expect.element(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const work = page.getByRole('row').filter({ hasText: 'Work' });
  await expect.element(work).toHaveAttribute('aria-current', 'true');
  const local = page.getByRole('row').filter({ hasText: 'Local sandbox' });
  await expect.element(local).not.toHaveAttribute('aria-current');
});

it("a drift's notification opens Drift with that profile pointed out", async () => {
  openAt({ type: 'drift', profileId: WORK });
  expect(window.location.hash).toBe(`#/drift?profile=${WORK}`);
  render(App, { bridge: scriptedBridge() });
  await expect.element(page.getByRole('heading', { name: 'Drift', level: 1 })).toBeVisible();
  const work = page.getByRole('region', { name: 'Work', exact: true });
  await expect.element(work).toHaveAttribute('aria-current', 'true');
  await expect
    .element(page.getByRole('region', { name: 'Local sandbox', exact: true }))
    .not.toHaveAttribute('aria-current');
});

it("a certificate's notification opens the saved certificates with that one pointed out", async () => {
  openCertificate('saved-2', [saved('saved-1', 'id_one'), saved('saved-2', 'id_two')]);
  await expect.element(page.getByRole('heading', { name: 'SSH', level: 1 })).toBeVisible();
  await expect
    .element(page.getByRole('tab', { name: 'Saved certificates' }))
    .toHaveAttribute('aria-selected', 'true');
  const two = page.getByRole('row').filter({ hasText: 'id_two-cert.pub' });
  await expect.element(two).toHaveAttribute('aria-current', 'true');
  await expect
    .element(page.getByRole('row').filter({ hasText: 'id_one-cert.pub' }))
    .not.toHaveAttribute('aria-current');
});

it("a certificate's notification for one forgotten since says so on the saved certificates", async () => {
  openCertificate('saved-gone', [saved('saved-1', 'id_one')]);
  await expect
    .element(page.getByRole('status').filter({ hasText: 'no longer saved on this machine' }))
    .toBeVisible();
  await expect
    .element(page.getByRole('row').filter({ hasText: 'id_one-cert.pub' }))
    .not.toHaveAttribute('aria-current');
});

it("an agent's notification opens the sessions of its profile, even when another is active, at that agent", async () => {
  openAt({ type: 'session', profileId: WORK, sessionId: 'ts_work2' });
  const agent = (id: string) => someAgent(WORK, `box-${id}`, { session: session(id) });
  render(App, {
    bridge: scriptedBridge({
      'sessions.snapshot': () => watched(SOME_PROFILES.activeId ?? '', WORK),
      'agents.snapshot': () => agentsOf({ [WORK]: [agent('ts_work1'), agent('ts_work2')] }),
    }),
  });
  await expect.element(page.getByRole('heading', { name: 'Sessions of Work' })).toBeVisible();
  await expect.element(page.getByRole('heading', { name: 'box-ts_work2', level: 2 })).toBeVisible();
  await expect.element(page.getByText('ts_work2', { exact: true })).toBeVisible();
  await expect.element(page.getByRole('heading', { name: 'box-ts_work1' })).not.toBeInTheDocument();
});
