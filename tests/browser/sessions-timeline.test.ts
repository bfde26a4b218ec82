import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import Timeline from '../../renderer/src/screens/sessions/Timeline.svelte';
import type { Agent } from '../../shared/app/agents.ts';
import { clockTime } from '../../shared/app/clock.ts';
import '../../renderer/src/app.css';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** A day with 20 minutes offline, a restart and an update; its first band began before the day. */
const DAY: Pick<Agent, 'name' | 'history'> = {
  name: 'build-box',
  history: {
    bands: [
      { state: 'online', from: NOW - 30 * HOUR, to: NOW - 10 * HOUR },
      { state: 'offline', from: NOW - 10 * HOUR, to: NOW - 10 * HOUR + 20 * MINUTE },
      { state: 'online', from: NOW - 10 * HOUR + 20 * MINUTE, to: null },
    ],
    marks: [
      { kind: 'offline', at: NOW - 10 * HOUR, detail: null },
      { kind: 'restarted', at: NOW - 5 * HOUR, detail: 'new session ts_b' },
      { kind: 'updated', at: NOW - 2 * HOUR, detail: '3.1.2 → 3.3.0' },
    ],
  },
};

const SUMMARY = 'online 23 h 40 min, offline 20 min, 1 restart, 1 update';

it('draws the last day as bands and marks, named by its summary', async () => {
  const { container } = render(Timeline, { agent: DAY, now: NOW });
  const image = page.getByRole('img', { name: `Last 24 hours of build-box: ${SUMMARY}` });
  await expect.element(image).toBeVisible();
  await expect.element(page.getByText(SUMMARY, { exact: true })).toBeVisible();

  const svg = image.element();
  expect(svg.querySelectorAll('rect.online')).toHaveLength(2);
  const [offline, ...others] = svg.querySelectorAll('rect.offline');
  expect(others).toHaveLength(0);
  // 20 minutes of 24 hours, 14 hours from the left edge: the band before the day is cut at it.
  expect(Number(offline?.getAttribute('width'))).toBeCloseTo((20 / 1440) * 1000, 1);
  expect(Number(offline?.getAttribute('x'))).toBeCloseTo((14 / 24) * 1000, 1);
  expect(Number(svg.querySelector('rect.online')?.getAttribute('x'))).toBe(0);
  // Going offline is the band's edge already: only the restart and the update are marks.
  expect([...svg.querySelectorAll('line.mark')].map((l) => l.classList[1])).toEqual([
    'restarted',
    'updated',
  ]);
  expect(container.querySelectorAll('button')).toHaveLength(5);
});

it('tells the times of a mark on hover and of a band on focus', async () => {
  render(Timeline, { agent: DAY, now: NOW });
  const readout = page.getByTestId('timeline-readout');
  const restart = `Restarted at ${clockTime(NOW - 5 * HOUR, NOW)} · new session ts_b`;
  await page.getByRole('button', { name: restart }).hover();
  await expect.element(readout).toHaveTextContent(restart);

  await userEvent.unhover(page.getByRole('button', { name: restart }));
  await expect.element(readout).toHaveTextContent(SUMMARY);

  const from = clockTime(NOW - 10 * HOUR, NOW);
  const to = clockTime(NOW - 10 * HOUR + 20 * MINUTE, NOW);
  const band = page.getByRole('button', { name: `Offline ${from} – ${to} (20 min)` });
  (band.element() as HTMLElement).focus();
  await expect.element(readout).toHaveTextContent(`Offline ${from} – ${to} (20 min)`);
  await expect
    .element(page.getByRole('button', { name: /^Online .* – now \(9 h 40 min\)$/ }))
    .toBeInTheDocument();
});

it('keeps the strip in the list to the picture and its summary', async () => {
  const { container } = render(Timeline, { agent: DAY, now: NOW, compact: true });
  await expect
    .element(page.getByRole('img', { name: `Last 24 hours of build-box: ${SUMMARY}` }))
    .toBeVisible();
  expect(container.querySelectorAll('button')).toHaveLength(0);
});

it('says when nothing was seen yet', async () => {
  render(Timeline, { agent: { name: 'new-box', history: { bands: [], marks: [] } }, now: NOW });
  await expect
    .element(page.getByRole('img', { name: 'Last 24 hours of new-box: nothing seen yet' }))
    .toBeVisible();
});
