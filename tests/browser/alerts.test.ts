import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import '../../renderer/src/app.css';
import { Settings, type SettingsPatch } from '../../shared/app/ipc/settings.ts';
import { scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

const WORK = 'prf_work00001';

/** A control by its whole label: several labels here begin alike. */
const field = (within: ReturnType<typeof page.getByRole>, label: string) =>
  within.getByLabelText(label, { exact: true });

/** Settings on the Alerts section, core keeping what `settings.update` sends and telling it. */
function showAlerts() {
  window.location.hash = '#/settings';
  let settings = Settings.parse({});
  const bridge = scriptedBridge({
    'settings.get': () => settings,
    'settings.update': (patch: SettingsPatch) => {
      settings = Settings.parse({ ...settings, alerts: { ...settings.alerts, ...patch.alerts } });
      queueMicrotask(() => bridge.emit('settings.changed', settings));
      return settings;
    },
  });
  render(App, { bridge });
  const updates = () =>
    bridge.calls.filter((c) => c.name === 'settings.update').map((c) => c.args[0]);
  return { section: page.getByRole('region', { name: 'Alerts' }), updates };
}

it("names each rule's control, with today's defaults", async () => {
  const { section } = showAlerts();
  await expect
    .element(section.getByRole('combobox', { name: 'Tell an agent offline after' }))
    .toHaveValue('0');
  await expect.element(field(section, 'Tell when an agent is back online')).toBeChecked();
  await expect
    .element(field(section, 'Tell when an agent falls behind the newest version'))
    .not.toBeChecked();
  await expect
    .element(field(section, 'Tell a certificate a set number of days before it expires'))
    .not.toBeChecked();
  await expect.element(field(section, 'Quiet hours')).not.toBeChecked();
  // The profile the rules are for: the active one first.
  await expect
    .element(section.getByRole('combobox', { name: 'Profile' }))
    .toHaveValue(SOME_PROFILES.activeId);
});

it("saves one profile's rules whole, leaving the other's", async () => {
  const { section, updates } = showAlerts();
  await section.getByRole('combobox', { name: 'Profile' }).selectOptions('Work');
  await section
    .getByRole('combobox', { name: 'Tell an agent offline after' })
    .selectOptions('5 min');
  await expect.poll(updates).toHaveLength(1);
  await field(section, 'Tell a certificate a set number of days before it expires').click();
  const days = field(section, 'Days before it expires');
  await expect.element(days).toHaveValue(7);
  await days.fill('14');
  await userEvent.tab();
  await field(section, 'Quiet hours').click();
  await expect.element(field(section, 'from')).toHaveValue('22:00');
  await expect.poll(updates).toHaveLength(4);
  const defaults = Settings.parse({ alerts: { x: {} } }).alerts['x'];
  expect(updates()).toEqual([
    { alerts: { [WORK]: { ...defaults, offlineAfterMinutes: 5 } } },
    { alerts: { [WORK]: { ...defaults, offlineAfterMinutes: 5, certificateLeadDays: 7 } } },
    {
      alerts: { [WORK]: { ...defaults, offlineAfterMinutes: 5, certificateLeadDays: 14 } },
    },
    {
      alerts: {
        [WORK]: {
          ...defaults,
          offlineAfterMinutes: 5,
          certificateLeadDays: 14,
          quietHours: { from: '22:00', to: '07:00' },
        },
      },
    },
  ]);
  // The other profile still has the defaults.
  await section.getByRole('combobox', { name: 'Profile' }).selectOptions('Local sandbox');
  await expect
    .element(section.getByRole('combobox', { name: 'Tell an agent offline after' }))
    .toHaveValue('0');
});

it('says which field is wrong when the days are out of range, and saves nothing', async () => {
  const { section, updates } = showAlerts();
  await field(section, 'Tell a certificate a set number of days before it expires').click();
  await expect.poll(updates).toHaveLength(1);
  const days = field(section, 'Days before it expires');
  await days.fill('45');
  await userEvent.tab();
  await expect
    .element(section.getByRole('alert'))
    .toHaveTextContent('Days before it expires: a whole number from 1 to 30');
  await expect.element(days).toHaveAttribute('aria-invalid', 'true');
  expect(updates()).toHaveLength(1);
});
