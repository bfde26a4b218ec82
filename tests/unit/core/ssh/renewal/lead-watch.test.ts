import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchLeadTimes } from '../../../../../core/ssh/renewal/lead-watch.ts';
import { Notifier } from '../../../../../core/notify/notifier.ts';
import { withinLeadTime } from '../../../../../core/ssh/renewal/lead.ts';
import { RENEWAL_CHECK_MS } from '../../../../../core/ssh/renewal/watch.ts';
import { AlertRules } from '../../../../../shared/app/ipc/settings.ts';
import type { CertificateExpiring, Notification } from '../../../../../shared/app/notifications.ts';
import { savedCertificate, T0 } from '../fixtures.ts';
import { memorySettings, recordedActions } from '../../support.ts';

const DAY = 86_400_000;
const P1 = 'prf_00000001';
/** Valid for 60 days from T0, signed by P1. */
const cert = savedCertificate({
  profileId: P1,
  validUntil: new Date(T0 + 60 * DAY).toISOString(),
});

describe('the certificate lead time', () => {
  afterEach(() => vi.useRealTimers());

  it('finds a certificate once it is within its profile’s days of its end, keyed by its window', () => {
    const seven = (id: string) => (id === P1 ? 7 : null);
    expect(withinLeadTime([cert], seven, T0 + 52 * DAY)).toEqual([]);
    const [due] = withinLeadTime([cert], seven, T0 + 54 * DAY);
    expect(due).toMatchObject({ savedId: cert.id, reason: 'lead-time', expired: false });
    expect(due?.dueAt).toBe(new Date(T0 + 53 * DAY).toISOString());
    // A renewal is a new window; another lead is a new lead window.
    const renewed = { ...cert, validUntil: new Date(T0 + 120 * DAY).toISOString() };
    expect(withinLeadTime([renewed], seven, T0 + 114 * DAY)[0]?.key).not.toBe(due?.key);
    expect(withinLeadTime([cert], () => 14, T0 + 54 * DAY)[0]?.key).not.toBe(due?.key);
    // No rule, or no profile: nothing.
    expect(withinLeadTime([cert], () => null, T0 + 59 * DAY)).toEqual([]);
    const unsigned = savedCertificate({ validUntil: cert.validUntil });
    expect(withinLeadTime([unsigned], () => 7, T0 + 59 * DAY)).toEqual([]);
  });

  it('takes 1 to 30 whole days or none, and says which field is wrong', () => {
    expect(AlertRules.parse({}).certificateLeadDays).toBeNull();
    expect(AlertRules.parse({ certificateLeadDays: 30 }).certificateLeadDays).toBe(30);
    for (const bad of [0, 31, 2.5, '7'])
      expect(AlertRules.safeParse({ certificateLeadDays: bad }).error?.issues[0]?.path).toEqual([
        'certificateLeadDays',
      ]);
  });

  it('is told once per lead window by its own check', async () => {
    vi.useFakeTimers();
    const heard: CertificateExpiring[] = [];
    let now = T0 + 54 * DAY;
    const stop = watchLeadTimes({
      saved: () => [cert],
      leadDaysOf: () => 7,
      hear: (event) => heard.push(event),
      now: () => now,
    });
    // The check at start, then a day on and a few checks later: still the same lead window.
    await vi.advanceTimersByTimeAsync(0);
    now += DAY;
    await vi.advanceTimersByTimeAsync(3 * RENEWAL_CHECK_MS);
    stop();
    expect(heard).toEqual([
      {
        kind: 'certificate-expiring',
        certId: cert.id,
        name: 'id-cert.pub',
        expiresAt: cert.validUntil,
        at: T0 + 54 * DAY,
        profileId: P1,
        leadDays: 7,
      },
    ]);
  });

  it('tells the profile’s certificates at its lead time instead of at renewal time', () => {
    const settings = memorySettings();
    const now = T0 + 54 * DAY;
    const notifier = new Notifier({
      settings,
      profileNames: () => ({ [P1]: 'Acme' }),
      runSession: recordedActions().runSession,
      mute: () => undefined,
      now: () => now,
    });
    const shown: Notification[] = [];
    notifier.onNotification((n) => shown.push(n));
    const reminder: CertificateExpiring = {
      kind: 'certificate-expiring',
      certId: cert.id,
      name: 'id-cert.pub',
      expiresAt: cert.validUntil,
      at: now,
      profileId: P1,
    };
    // Without the rule, the renewal reminder is told as before.
    notifier.hear(reminder);
    expect(shown.map((n) => n.body)).toEqual(['id-cert.pub expires in 6 days.']);
    settings.update({ alerts: { [P1]: { ...AlertRules.parse({}), certificateLeadDays: 7 } } });
    notifier.hear({ ...reminder, certId: 'other' });
    expect(shown).toHaveLength(1);
    notifier.hear({ ...reminder, certId: 'other', leadDays: 7 });
    expect(shown).toHaveLength(2);
    notifier.close();
  });
});
