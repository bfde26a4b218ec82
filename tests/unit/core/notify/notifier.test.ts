import { describe, expect, it } from 'vitest';
import { Notifier } from '../../../../core/notify/notifier.ts';
import { agentKey } from '../../../../shared/app/monitor.ts';
import type { Notification } from '../../../../shared/app/notifications.ts';
import { session, successor } from '../../../support/tunnel-sessions.ts';
import { memorySettings, recordedActions } from '../support.ts';

const NOW = new Date(2026, 10, 23, 10, 0).getTime();

function setup() {
  const settings = memorySettings();
  const { ran, runSession } = recordedActions();
  const muted: string[] = [];
  const notifier = new Notifier({
    settings,
    profileNames: () => ({ p1: 'Acme' }),
    runSession,
    mute: (key) => muted.push(key),
    now: () => NOW,
  });
  const shown: Notification[] = [];
  notifier.onNotification((n) => shown.push(n));
  return { notifier, shown, ran, muted };
}

describe('the notifier', () => {
  it("runs a notification's Restart and Mute on its own agent, by the notification's id", async () => {
    const { notifier, shown, ran, muted } = setup();
    const web = session({ metadata: 'web' });
    const back = successor(web);
    notifier.hear({ kind: 'restarted', profileId: 'p1', at: NOW, session: back, previous: web });
    const [restarted] = shown;
    expect(restarted).toMatchObject({
      title: 'web restarted',
      actions: ['open', 'restart', 'mute'],
    });
    await notifier.act(restarted?.id ?? '', 'restart');
    await notifier.act(restarted?.id ?? '', 'mute');
    expect(ran).toEqual([{ profileId: 'p1', sessionId: back.id, action: 'restart' }]);
    expect(muted).toEqual([agentKey(back)]);
  });

  it('refuses an action the notification did not offer, or a notification it never showed', async () => {
    const { notifier, shown } = setup();
    const gone = session({ metadata: 'gone' });
    notifier.hear({ kind: 'offline', profileId: 'p1', at: NOW, sessions: [gone] });
    notifier.hear({ kind: 'unreachable', profileId: 'p1', at: NOW, reason: 'refused' });
    const [offline, api] = shown;
    await expect(notifier.act(offline?.id ?? '', 'restart')).rejects.toMatchObject({
      code: 'NOTIFY_NO_ACTION',
    });
    await expect(notifier.act(api?.id ?? '', 'mute')).rejects.toMatchObject({
      code: 'NOTIFY_NO_ACTION',
    });
    await expect(notifier.act('nothing', 'mute')).rejects.toMatchObject({
      code: 'NOTIFY_NO_ITEM',
    });
  });
});
