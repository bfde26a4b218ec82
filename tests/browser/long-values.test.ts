import { render } from '@testing-library/svelte';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
// The window's own styles: what scrolls sideways depends on them.
import '../../renderer/src/app.css';
import { freshWindow, listPage, record, URI } from './support/records.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

/* Values as long as the API takes them: nothing scrolls the page sideways, nothing fills it. */

const DESCRIPTION = 'x'.repeat(250);
const METADATA = JSON.stringify({ notes: 'y '.repeat(1500) }, null, 2).replaceAll(' y', '\n y');
const policy = record('ipp_long1', 'ip_policies', {
  description: DESCRIPTION,
  metadata: METADATA,
});
const rules = [DESCRIPTION, 'word '.repeat(50).trim()].map((description, i) => ({
  ...record(`ipr_long${i}`, 'ip_policy_rules', { description }),
  cidr: i === 0 ? '10.0.0.0/8' : '2001:db8:abcd:12::/64',
  action: 'allow',
  ip_policy: { id: policy.id, uri: `${URI}/ip_policies/${policy.id}` },
}));

beforeEach(freshWindow);
afterEach(() => page.viewport(1280, 800));

it.each([
  [800, 600],
  [1280, 800],
])(
  'shows an IP policy with a 250-character word, 3 KB of metadata and rules as long at %i×%i',
  async (w, h) => {
    await page.viewport(w, h);
    window.location.hash = '#/ip-policies';
    render(App, {
      bridge: scriptedBridge({
        'api.ipPolicies.list': () => listPage('ip_policies', [policy]),
        'api.ipPolicies.get': () => policy,
        'api.ipPolicyRules.listAll': () => rules,
      }),
    });
    await userEvent.click(page.getByRole('link', { name: 'ipp_long1' }));
    const heading = page.getByRole('heading', { level: 2, name: /ipp_long1/ });
    await expect.element(heading).toBeVisible();
    await expect
      .element(page.getByRole('cell', { name: '2001:db8:abcd:12::/64', exact: true }))
      .toBeVisible();
    const scroller = document.scrollingElement ?? document.documentElement;
    expect(scroller.scrollWidth).toBeLessThanOrEqual(scroller.clientWidth);
    for (const el of document.querySelectorAll('#content *'))
      expect(el.getBoundingClientRect().right, el.tagName).toBeLessThanOrEqual(w + 1);
    // Two lines of the heading at most: the whole description is in the detail.
    const fontSize = parseFloat(getComputedStyle(heading.element()).fontSize);
    expect(heading.element().getBoundingClientRect().height).toBeLessThanOrEqual(
      2 * 1.5 * fontSize,
    );

    const metadata = page.getByText(/"notes"/);
    const clamped = metadata.element().getBoundingClientRect().height;
    expect(clamped).toBeLessThan(120);
    await userEvent.click(page.getByRole('button', { name: 'Show all of Metadata' }));
    expect(metadata.element().getBoundingClientRect().height).toBeGreaterThan(clamped * 4);
  },
);
