import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiCaller } from '../../support/sandbox-client.ts';
import {
  CA_PEM,
  expectError,
  LEAF_PEM,
  PUBLIC_KEYS,
  USAGE_CA_PEM,
  sandboxForFile,
} from './support.ts';

const suite = sandboxForFile();
const { api } = suite;

function sshKeygenList(certificate: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-cert-'));
  const file = join(dir, 'id-cert.pub');
  writeFileSync(file, `${certificate}\n`);
  // ssh-keygen verifies the CA's signature while parsing.
  return execFileSync('ssh-keygen', ['-L', '-f', file], { encoding: 'utf8' });
}

describe('SSH certificate authorities and certificates', () => {
  it('generates each key type with the documented defaults', async () => {
    const ed = await api('POST', '/ssh_certificate_authorities', {});
    expect(ed.body).toMatchObject({ key_type: 'ed25519' });
    expect(ed.body.public_key).toMatch(/^ssh-ed25519 AAAA/);
    expect(ed.body).not.toHaveProperty('private_key');
    const ec = await api('POST', '/ssh_certificate_authorities', { private_key_type: 'ecdsa' });
    expect(ec.body.public_key).toMatch(/^ecdsa-sha2-nistp384 /);
    const ec256 = await api('POST', '/ssh_certificate_authorities', {
      private_key_type: 'ecdsa',
      elliptic_curve: 'p256',
    });
    expect(ec256.body.public_key).toMatch(/^ecdsa-sha2-nistp256 /);
    const rsa = await api('POST', '/ssh_certificate_authorities', {
      private_key_type: 'rsa',
      key_size: 2048,
    });
    expect(rsa.body).toMatchObject({ key_type: 'rsa' });
    expect(rsa.body.public_key).toMatch(/^ssh-rsa /);
    expectError(
      await api('POST', '/ssh_certificate_authorities', { key_size: 2048 }),
      'invalidValue',
    );
  });

  it('signs user certificates that OpenSSH reads, with the defaults of the spec', async () => {
    const ca = await api('POST', '/ssh_certificate_authorities', {
      private_key_type: 'ecdsa',
      elliptic_curve: 'p256',
    });
    const cert = await api('POST', '/ssh_user_certificates', {
      ssh_certificate_authority_id: ca.body.id,
      public_key: PUBLIC_KEYS.ed25519,
      principals: ['alice', 'root'],
      critical_options: { 'force-command': 'uptime' },
    });
    expect(cert.status).toBe(201);
    expect(cert.body).toMatchObject({
      key_type: 'ed25519',
      principals: ['alice', 'root'],
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
      critical_options: { 'force-command': 'uptime' },
    });
    const validity = Date.parse(cert.body.valid_until) - Date.parse(cert.body.valid_after);
    expect(validity).toBe(24 * 3600 * 1000);
    expect(cert.body.certificate).toMatch(/^ssh-ed25519-cert-v01@openssh\.com /);
    const listing = sshKeygenList(cert.body.certificate);
    expect(listing).toContain('user certificate');
    expect(listing).toContain('force-command uptime');
    expect(listing).toMatch(/alice\s+root/);
  });

  it('signs host certificates valid for a year, and checks times, keys and references', async () => {
    const ca = await api('POST', '/ssh_certificate_authorities', {});
    const cert = await api('POST', '/ssh_host_certificates', {
      ssh_certificate_authority_id: ca.body.id,
      public_key: PUBLIC_KEYS.rsa,
      principals: ['host.example.com'],
      valid_after: '2030-01-01T01:00:00+01:00',
    });
    expect(cert.body).toMatchObject({ key_type: 'rsa', valid_after: '2030-01-01T00:00:00.000Z' });
    expect(Date.parse(cert.body.valid_until) - Date.parse(cert.body.valid_after)).toBe(
      365 * 24 * 3600 * 1000,
    );
    expect(sshKeygenList(cert.body.certificate)).toContain('host certificate');
    expectError(
      await api('POST', '/ssh_host_certificates', {
        ssh_certificate_authority_id: ca.body.id,
        public_key: 'ssh-ed25519 AAAA',
      }),
      'invalidPublicKey',
    );
    expectError(
      await api('POST', '/ssh_host_certificates', {
        ssh_certificate_authority_id: 'sshca_none',
        public_key: PUBLIC_KEYS.ed25519,
      }),
      'invalidReference',
    );
    expectError(
      await api('POST', '/ssh_host_certificates', {
        ssh_certificate_authority_id: ca.body.id,
        public_key: PUBLIC_KEYS.ed25519,
        valid_until: '2001-01-01T00:00:00Z',
      }),
      'invalidValidity',
    );
    expectError(
      await api('POST', '/ssh_user_certificates', {
        ssh_certificate_authority_id: ca.body.id,
        public_key: PUBLIC_KEYS.ed25519,
        critical_options: { 'permit-pty': '' },
      }),
      'unknownCriticalOption',
    );
    // A CA that signed certificates is in use.
    expectError(
      await api('DELETE', `/ssh_certificate_authorities/${ca.body.id}`),
      'stillReferenced',
    );
    await api('DELETE', `/ssh_host_certificates/${cert.body.id}`);
    expect((await api('DELETE', `/ssh_certificate_authorities/${ca.body.id}`)).status).toBe(204);
  });
});

describe('certificate authorities', () => {
  it('reads the fields out of the certificate', async () => {
    const ca = await api('POST', '/certificate_authorities', {
      ca_pem: USAGE_CA_PEM,
      description: 'mtls',
    });
    expect(ca.status).toBe(201);
    expect(ca.body).toMatchObject({
      subject_common_name: 'Burrow Usage CA',
      key_usages: ['digital_signature', 'cert_sign', 'crl_sign'],
      extended_key_usages: ['client_auth'],
    });
    expect(ca.body.not_after > ca.body.not_before).toBe(true);
    const plain = await api('POST', '/certificate_authorities', { ca_pem: CA_PEM });
    expect(plain.body).toMatchObject({ subject_common_name: 'Burrow Test CA', key_usages: [] });
  });

  it('refuses a certificate that is no CA (215 on ca_pem)', async () => {
    const reply = await api('POST', '/certificate_authorities', { ca_pem: LEAF_PEM });
    expectError(reply, 'invalidValue');
    expect(reply.body.details.field).toBe('ca_pem');
    expectError(await api('POST', '/certificate_authorities', { ca_pem: 'nope' }), 'invalidValue');
  });
});

describe('backends', () => {
  it('checks failover children exist (223) and never form a cycle', async () => {
    const hr = await api('POST', '/backends/http_response', { body: 'hi', status_code: 418 });
    expect(hr.body).toMatchObject({ body: 'hi', status_code: 418, headers: {} });
    const tg = await api('POST', '/backends/tunnel_group', { labels: { env: 'prod' } });
    const a = await api('POST', '/backends/failover', { backends: [hr.body.id, tg.body.id] });
    expect(a.body.backends).toEqual([hr.body.id, tg.body.id]);
    const b = await api('POST', '/backends/failover', { backends: [a.body.id] });
    expectError(
      await api('POST', '/backends/failover', { backends: ['bkdhr_missing'] }),
      'invalidReference',
    );
    expectError(
      await api('POST', '/backends/failover', { backends: ['ipp_x'] }),
      'invalidReference',
    );
    expectError(
      await api('PATCH', `/backends/failover/${a.body.id}`, { backends: [b.body.id] }),
      'invalidReference',
    );
    expectError(
      await api('PATCH', `/backends/failover/${a.body.id}`, { backends: [a.body.id] }),
      'invalidReference',
    );
    // Referenced backends stay until nothing uses them.
    expectError(await api('DELETE', `/backends/http_response/${hr.body.id}`), 'stillReferenced');
    expectError(await api('DELETE', `/backends/failover/${a.body.id}`), 'stillReferenced');
    expect((await api('DELETE', `/backends/failover/${b.body.id}`)).status).toBe(204);
    expect((await api('DELETE', `/backends/failover/${a.body.id}`)).status).toBe(204);
    expect((await api('DELETE', `/backends/http_response/${hr.body.id}`)).status).toBe(204);
    const updated = await api('PATCH', `/backends/tunnel_group/${tg.body.id}`, {
      labels: { env: 'dev' },
    });
    expect(updated.body.labels).toEqual({ env: 'dev' });
  });
});

describe('agent ingresses', () => {
  it('generates NS targets and regional domains; the domain is create-only', async () => {
    const ingress = await api('POST', '/agent_ingresses', { domain: 'Tunnels.Example.com' });
    expect(ingress.body.domain).toBe('tunnels.example.com');
    expect(ingress.body.ns_targets).toHaveLength(4);
    expect(ingress.body.region_domains).toContain('eu.tunnels.example.com');
    expectError(
      await api('PATCH', `/agent_ingresses/${ingress.body.id}`, { domain: 'x.com' }),
      'unknownField',
    );
    expect((await api('GET', '/agent_ingresses')).body.ingresses[0].id).toBe(ingress.body.id);
  });
});

describe('abuse reports', () => {
  it('records one PENDING hostname per distinct host', async () => {
    const report = await api('POST', '/abuse_reports', {
      urls: ['https://bad.example.com/a', 'http://BAD.example.com/b', 'https://other.example.net/'],
      metadata: 'ticket 7',
    });
    expect(report.status).toBe(201);
    expect(report.body).toMatchObject({
      status: 'PENDING',
      hostnames: [
        { hostname: 'bad.example.com', status: 'PENDING' },
        { hostname: 'other.example.net', status: 'PENDING' },
      ],
    });
    expect((await api('GET', `/abuse_reports/${report.body.id}`)).body).toEqual(report.body);
    expectError(await api('POST', '/abuse_reports', { urls: ['ftp://x.com/'] }), 'abuseReportUrl');
  });

  it('is refused for accounts without abuse reports (305)', async () => {
    const carol = apiCaller(suite.sandbox.url, 'carol-key-1');
    expectError(
      await carol('POST', '/abuse_reports', { urls: ['https://x.com/'] }),
      'abuseReportsNotEnabled',
    );
  });
});

describe('tunnel sessions', () => {
  it('lists none while no agent is connected; unknown sessions are 301', async () => {
    const listed = await api('GET', '/tunnel_sessions');
    expect(listed.body).toEqual({
      tunnel_sessions: [],
      uri: `${suite.sandbox.url}/tunnel_sessions`,
      next_page_uri: null,
    });
    expectError(await api('GET', '/tunnel_sessions/ts_abc'), 'notFound');
    for (const command of ['restart', 'stop', 'update'])
      expectError(await api('POST', `/tunnel_sessions/ts_abc/${command}`, {}), 'notFound');
    expectError(await api('POST', '/tunnel_sessions/ts_abc/stop', { now: true }), 'unknownField');
  });
});
