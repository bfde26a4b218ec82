import { describe, expect, it } from 'vitest';
import { dueForRenewal, renewalDue } from '../../../../../core/ssh/renewal/due.ts';
import { HOUR, savedCertificate as saved, T0 } from '../fixtures.ts';

describe('renewalDue', () => {
  it('is quiet until two thirds of the lifetime have passed', () => {
    expect(renewalDue(saved(), T0 + 16 * HOUR - 1)).toBeUndefined();
    const due = renewalDue(saved(), T0 + 16 * HOUR);
    expect(due).toMatchObject({
      savedId: 'local-1',
      reason: 'two-thirds',
      dueAt: '2026-11-23T16:00:00.000Z',
      expired: false,
      message: 'The certificate /home/a/.ssh/id-cert.pub expires in 8 h; renew it now.',
    });
  });

  it('uses the lead time the person set when it is shorter than the lifetime', () => {
    const withLead = saved({ leadTimeSeconds: 3600 });
    expect(renewalDue(withLead, T0 + 23 * HOUR - 1)).toBeUndefined();
    expect(renewalDue(withLead, T0 + 23 * HOUR)?.reason).toBe('lead-time');
    // A lead time longer than the lifetime would remind at once: two thirds applies instead.
    expect(renewalDue(saved({ leadTimeSeconds: 48 * 3600 }), T0 + HOUR)).toBeUndefined();
  });

  it('says when the certificate has expired', () => {
    const due = renewalDue(saved(), T0 + 25 * HOUR);
    expect(due?.expired).toBe(true);
    expect(due?.message).toContain('expired at 2026-11-24T00:00:00.000Z');
  });

  it('keys events by validity window, and a renewal moves the window so no reminder follows it', () => {
    const now = T0 + 20 * HOUR;
    const before = renewalDue(saved(), now);
    const renewed = saved({
      validAfter: new Date(now).toISOString(),
      validUntil: new Date(now + 24 * HOUR).toISOString(),
    });
    expect(renewalDue(renewed, now)).toBeUndefined();
    expect(renewalDue(renewed, now + 16 * HOUR)?.key).not.toBe(before?.key);
    expect(dueForRenewal([saved(), renewed], now).map((d) => d.key)).toEqual([before?.key]);
  });
});
