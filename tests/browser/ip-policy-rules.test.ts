import { render } from '@testing-library/svelte';
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { BridgeCallError } from '../../shared/app/ipc/bridge.ts';
import { freshWindow, listOf, record, URI } from './support/records.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

/*
 * An IP policy's page lists its rules and edits them in their rows: the block, allow or deny,
 * the description. A block that is no CIDR is refused at its field in words, before any call.
 */

const POLICY = 'ipp_office1';
const policy = record(POLICY, 'ip_policies', { description: 'office' });

type Rule = ReturnType<typeof record> & {
  cidr: string;
  action: 'allow' | 'deny';
  ip_policy: { id: string; uri: string };
};
let n = 0;
const rule = (
  cidr: string,
  action: 'allow' | 'deny',
  ip_policy = POLICY,
  description = '',
): Rule => ({
  ...record(`ipr_${(n += 1)}`, 'ip_policy_rules', { description }),
  cidr,
  action,
  ip_policy: { id: ip_policy, uri: `${URI}/ip_policies/${ip_policy}` },
});

beforeEach(freshWindow);

/** The policy's page over a small account of rules the scripted API keeps, newest first. */
function open(rules: Rule[], extra: Parameters<typeof scriptedBridge>[0] = {}) {
  let account = [...rules].reverse();
  window.location.hash = `#/ip-policies/ipPolicies/${POLICY}`;
  const bridge = scriptedBridge({
    'api.ipPolicies.list': listOf('ip_policies', [policy]),
    'api.ipPolicies.get': () => policy,
    'api.ipPolicyRules.listAll': () => account,
    'api.ipPolicyRules.create': ({ body }: { body: Record<string, string> }) => {
      const made = rule(body['cidr'] ?? '', body['action'] as 'allow', POLICY, body['description']);
      account = [made, ...account];
      return made;
    },
    'api.ipPolicyRules.update': ({ params, body }: { params: { id: string }; body: object }) => {
      account = account.map((r) => (r.id === params.id ? { ...r, ...body } : r));
      return account.find((r) => r.id === params.id);
    },
    'api.ipPolicyRules.delete': ({ params }: { params: { id: string } }) => {
      account = account.filter((r) => r.id !== params.id);
    },
    ...extra,
  });
  render(App, { bridge });
  return { bridge, rules: () => account };
}

const rulesTable = () => page.getByRole('table', { name: "Rules of IP policy 'office'" });

/** Each rule's row as its block, action and description (the new rule's row left out). */
function shownRules(): string[] {
  const body = rulesTable().element().querySelectorAll('tbody tr:not(.new)');
  return [...body].map((row) =>
    [...row.querySelectorAll('td')]
      .slice(0, 3)
      .map((cell) => cell.textContent?.trim())
      .join(' | '),
  );
}

it("lists the policy's own rules, in the order they were added", async () => {
  open([
    rule('10.0.0.0/8', 'allow'),
    rule('192.0.2.0/24', 'allow', 'ipp_other1'),
    rule('10.9.0.0/16', 'deny', POLICY, 'guests'),
  ]);
  await expect.element(rulesTable()).toBeVisible();
  await expect.poll(shownRules).toEqual(['10.0.0.0/8 | Allow | ', '10.9.0.0/16 | Deny | guests']);
  await expect
    .element(page.getByRole('button', { name: 'Edit the deny rule 10.9.0.0/16' }))
    .toBeVisible();
});

it('says a policy without rules lets nothing through', async () => {
  open([]);
  await expect
    .element(page.getByText('No rule yet: this policy lets nothing through.'))
    .toBeVisible();
});

it('refuses a bad block at its field in words, sends nothing, and adds the rule once it is right', async () => {
  const { bridge, rules } = open([]);
  const cidr = page.getByRole('textbox', { name: 'Address block (CIDR) of the new rule' });
  await expect.element(cidr).toBeVisible();
  await userEvent.fill(cidr, '10.0.0.0/40');
  await userEvent.click(page.getByRole('button', { name: 'Add rule' }));

  const problem = page.getByText(
    'Address block (CIDR) must end with a prefix length from 0 to 32 for an IPv4 address',
  );
  await expect.element(problem).toBeVisible();
  await expect.element(cidr).toHaveAttribute('aria-invalid', 'true');
  await expect.element(cidr).toHaveFocus();
  await expect.element(cidr).toHaveAccessibleDescription(/prefix length from 0 to 32/);
  // Under the row, as wide as it: in the block's narrow cell it wrapped onto three lines.
  const width = (element: Element) => element.getBoundingClientRect().width;
  expect(width(problem.element())).toBeGreaterThan(2 * width(cidr.element()));
  expect(bridge.calls.filter((c) => c.name === 'api.ipPolicyRules.create')).toEqual([]);

  await userEvent.fill(cidr, '10.0.0.1');
  await expect.element(page.getByText(/must be an address block in CIDR notation/)).toBeVisible();
  await userEvent.fill(cidr, '2001:db8::/32');
  await expect.element(problem).not.toBeInTheDocument();
  await userEvent.selectOptions(
    page.getByRole('combobox', { name: 'Action of the new rule' }),
    'deny',
  );
  await userEvent.fill(page.getByRole('textbox', { name: 'Description of the new rule' }), 'lab');
  await userEvent.keyboard('{Enter}');

  await expect.poll(shownRules).toEqual(['2001:db8::/32 | Deny | lab']);
  expect(bridge.argsOf('api.ipPolicyRules.create')).toEqual([
    { body: { ip_policy_id: POLICY, cidr: '2001:db8::/32', action: 'deny', description: 'lab' } },
  ]);
  expect(rules()).toHaveLength(1);
  await expect.element(cidr).toHaveValue('');
  await expect.element(cidr).toHaveFocus();
});

it('keeps all that was typed when a block is refused, and names the field', async () => {
  const { bridge } = open([]);
  const cidr = page.getByRole('textbox', { name: 'Address block (CIDR) of the new rule' });
  const description = page.getByRole('textbox', { name: 'Description of the new rule' });
  const action = page.getByRole('combobox', { name: 'Action of the new rule' });
  await userEvent.fill(cidr, 'office');
  await userEvent.selectOptions(action, 'deny');
  await userEvent.fill(description, 'the office, its guests');
  await userEvent.keyboard('{Enter}');

  await expect.element(cidr).toHaveAccessibleDescription(/^Address block \(CIDR\) must be/);
  await expect.element(cidr).toHaveFocus();
  await expect.element(cidr).toHaveValue('office');
  await expect.element(action).toHaveValue('deny');
  await expect.element(description).toHaveValue('the office, its guests');
  expect(bridge.calls.filter((c) => c.name === 'api.ipPolicyRules.create')).toEqual([]);
});

it('asks before Escape drops a half-filled new rule, then empties it and sends nothing', async () => {
  const { bridge } = open([rule('10.0.0.0/8', 'allow')]);
  const cidr = page.getByRole('textbox', { name: 'Address block (CIDR) of the new rule' });
  const description = page.getByRole('textbox', { name: 'Description of the new rule' });
  await userEvent.fill(cidr, '10.9.');
  await userEvent.fill(description, 'half');
  await userEvent.keyboard('{Enter}');
  await expect.element(cidr).toHaveAttribute('aria-invalid', 'true');
  await userEvent.click(description);

  await userEvent.keyboard('{Escape}');
  const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
  await expect.element(ask).toBeVisible();
  await userEvent.click(ask.getByRole('button', { name: 'Keep editing' }));
  await expect.element(ask).not.toBeInTheDocument();
  await expect.element(cidr).toHaveValue('10.9.');
  await expect.element(description).toHaveValue('half');
  await expect.element(description).toHaveFocus();

  await userEvent.keyboard('{Escape}');
  await userEvent.click(ask.getByRole('button', { name: 'Discard' }));
  await expect.element(cidr).toHaveValue('');
  await expect.element(description).toHaveValue('');
  await expect.element(cidr).not.toHaveAttribute('aria-invalid', 'true');
  await expect.element(page.getByText(/must be an address block/)).not.toBeInTheDocument();
  await expect.element(description).toHaveFocus();
  await expect.poll(shownRules).toEqual(['10.0.0.0/8 | Allow | ']);
  expect(bridge.calls.filter((c) => /ipPolicyRules\.(create|update)$/.test(c.name))).toEqual([]);

  // Nothing typed, nothing to ask.
  await userEvent.keyboard('{Escape}');
  await expect.element(ask).not.toBeInTheDocument();
});

it("asks before Escape drops a rule's changes, and gives the focus back to its Edit", async () => {
  const { bridge } = open([rule('10.0.0.0/8', 'allow', POLICY, 'office')]);
  const edit = page.getByRole('button', { name: 'Edit the allow rule 10.0.0.0/8' });
  const cidr = page.getByRole('textbox', {
    name: 'Address block (CIDR) of the allow rule 10.0.0.0/8',
  });
  await userEvent.click(edit);
  // The row's first field takes the focus from the Edit button it replaces.
  await expect.element(cidr).toHaveFocus();
  await userEvent.keyboard('{Escape}');
  await expect.element(cidr).not.toBeInTheDocument();
  await expect.element(edit).toHaveFocus();

  await userEvent.click(edit);
  await userEvent.fill(cidr, '10.1.0.0/16');
  await userEvent.keyboard('{Escape}');
  const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
  await userEvent.click(ask.getByRole('button', { name: 'Keep editing' }));
  await expect.element(cidr).toHaveValue('10.1.0.0/16');
  await expect.element(cidr).toHaveFocus();

  // Cancel asks as Escape does.
  await userEvent.click(
    page.getByRole('button', { name: 'Cancel editing the allow rule 10.0.0.0/8' }),
  );
  await userEvent.click(ask.getByRole('button', { name: 'Keep editing' }));
  await expect.element(cidr).toHaveValue('10.1.0.0/16');

  await userEvent.click(cidr);
  await userEvent.keyboard('{Escape}');
  await userEvent.click(ask.getByRole('button', { name: 'Discard' }));
  await expect.poll(shownRules).toEqual(['10.0.0.0/8 | Allow | office']);
  await expect.element(edit).toHaveFocus();
  expect(bridge.calls.filter((c) => c.name === 'api.ipPolicyRules.update')).toEqual([]);
});

it('keeps the next rule typed while the last one is being added', async () => {
  let answer: (() => void) | undefined;
  open([], {
    'api.ipPolicyRules.create': ({ body }: { body: Record<string, string> }) =>
      new Promise((resolve) => {
        answer = () => resolve(rule(body['cidr'] ?? '', 'allow'));
      }),
  });
  const cidr = page.getByRole('textbox', { name: 'Address block (CIDR) of the new rule' });
  await userEvent.fill(cidr, '10.0.0.0/8');
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => answer).toBeDefined();
  await userEvent.fill(cidr, '10.9.0.0/16');
  answer?.();
  await expect.poll(shownRules).toEqual(['10.0.0.0/8 | Allow | ']);
  await expect.element(cidr).toHaveValue('10.9.0.0/16');
  await expect.element(cidr).toHaveFocus();
});

it('edits a rule in its row, sending only what changed', async () => {
  const { bridge } = open([rule('10.0.0.0/8', 'allow', POLICY, 'office')]);
  await userEvent.click(page.getByRole('button', { name: 'Edit the allow rule 10.0.0.0/8' }));
  const cidr = page.getByRole('textbox', {
    name: 'Address block (CIDR) of the allow rule 10.0.0.0/8',
  });
  await expect.element(cidr).toHaveValue('10.0.0.0/8');
  await userEvent.fill(cidr, '10.0.0.0/99');
  await userEvent.click(page.getByRole('button', { name: 'Save the allow rule 10.0.0.0/8' }));
  await expect
    .element(page.getByText('Address block (CIDR) must end with a prefix length from 0 to 32'))
    .toBeVisible();
  expect(bridge.calls.filter((c) => c.name === 'api.ipPolicyRules.update')).toEqual([]);

  await userEvent.fill(cidr, '10.1.0.0/16');
  await userEvent.click(page.getByRole('button', { name: 'Save the allow rule 10.0.0.0/8' }));
  await expect.poll(shownRules).toEqual(['10.1.0.0/16 | Allow | office']);
  expect(bridge.argsOf('api.ipPolicyRules.update')).toEqual([
    { params: { id: expect.stringMatching(/^ipr_/) }, body: { cidr: '10.1.0.0/16' } },
  ]);
  await expect
    .element(page.getByRole('button', { name: 'Edit the allow rule 10.1.0.0/16' }))
    .toHaveFocus();
});

it('replaces a rule whose action changes, the new one made before the old one goes', async () => {
  const old = rule('10.0.0.0/8', 'allow', POLICY, 'office');
  const { bridge, rules } = open([old]);
  await userEvent.click(page.getByRole('button', { name: 'Edit the allow rule 10.0.0.0/8' }));
  await userEvent.selectOptions(
    page.getByRole('combobox', { name: 'Action of the allow rule 10.0.0.0/8' }),
    'deny',
  );
  await expect
    .element(page.getByText('Saving replaces the rule: its action is fixed.'))
    .toBeVisible();
  await expect
    .element(page.getByRole('combobox', { name: 'Action of the allow rule 10.0.0.0/8' }))
    .toHaveAccessibleDescription('Saving replaces the rule: its action is fixed.');
  await userEvent.click(page.getByRole('button', { name: 'Save the allow rule 10.0.0.0/8' }));
  await expect.poll(shownRules).toEqual(['10.0.0.0/8 | Deny | office']);
  const writes = bridge.calls.filter((c) => /ipPolicyRules\.(create|update|delete)$/.test(c.name));
  expect(writes.map((c) => c.name)).toEqual([
    'api.ipPolicyRules.create',
    'api.ipPolicyRules.delete',
  ]);
  expect(writes[1]?.args).toEqual([{ params: { id: old.id } }]);
  expect(rules().map((r) => `${r.action} ${r.cidr}`)).toEqual(['deny 10.0.0.0/8']);
});

it("puts the API's refusal on the field it names", async () => {
  open([], {
    'api.ipPolicyRules.create': () => {
      throw new BridgeCallError({
        code: 'ERR_SERVICE_215',
        message: 'the service refuses this block',
        field: 'cidr',
      });
    },
  });
  const cidr = page.getByRole('textbox', { name: 'Address block (CIDR) of the new rule' });
  await userEvent.fill(cidr, '10.0.0.0/8');
  await userEvent.click(page.getByRole('button', { name: 'Add rule' }));
  await expect
    .element(page.getByText('Address block (CIDR): the service refuses this block'))
    .toBeVisible();
  await expect.element(cidr).toHaveAttribute('aria-invalid', 'true');
  await userEvent.fill(cidr, '10.0.0.0/9');
  await expect.element(page.getByText(/the service refuses this block/)).not.toBeInTheDocument();
});

it('deletes a rule once the person says yes', async () => {
  const { rules } = open([rule('10.0.0.0/8', 'allow'), rule('10.9.0.0/16', 'deny')]);
  await userEvent.click(page.getByRole('button', { name: 'Delete the deny rule 10.9.0.0/16' }));
  const dialog = page.getByRole('dialog');
  await expect
    .element(dialog)
    .toHaveTextContent("Delete the deny rule 10.9.0.0/16 of IP policy 'office'?");
  await userEvent.click(dialog.getByRole('button', { name: 'Delete rule' }));
  await expect.poll(shownRules).toEqual(['10.0.0.0/8 | Allow | ']);
  expect(rules().map((r) => r.cidr)).toEqual(['10.0.0.0/8']);
});

it('says why the rules are missing when they cannot be read, with Retry', async () => {
  let fail = true;
  open([], {
    'api.ipPolicyRules.listAll': () => {
      if (fail) throw new BridgeCallError({ code: 'NETWORK', message: 'the API did not answer' });
      return [rule('10.0.0.0/8', 'allow')];
    },
  });
  await expect
    .element(page.getByRole('alert').filter({ hasText: 'The rules could not be read' }))
    .toHaveTextContent('the API did not answer');
  fail = false;
  await userEvent.click(page.getByRole('button', { name: 'Retry' }));
  await expect.poll(shownRules).toEqual(['10.0.0.0/8 | Allow | ']);
});

it("says the policy's rules go with it before it is deleted", async () => {
  open([rule('10.0.0.0/8', 'allow')]);
  await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
  await expect
    .element(page.getByRole('dialog'))
    .toHaveTextContent('This cannot be undone. Its rules go with it.');
});
