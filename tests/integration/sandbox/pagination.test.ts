import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { ACCOUNTS, expectError } from './support.ts';

const COUNT = 230;
let sandbox: Sandbox;
let api: ReturnType<typeof apiCaller>;
let created: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: ACCOUNTS, rateLimit: 'off' });
  api = apiCaller(sandbox.url, 'alice-key-1');
  created = [];
  for (let i = 0; i < COUNT; i++)
    created.push((await api('POST', '/ip_policies', { description: `p${i}` })).body.id);
});
afterAll(() => sandbox.close());

async function walk(first: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let next: string | null = first;
  let pages = 0;
  while (next) {
    const page = await api('GET', next);
    expect(page.status).toBe(200);
    ids.push(...page.body.ip_policies.map((p: { id: string }) => p.id));
    next = page.body.next_page_uri;
    pages++;
  }
  return { ids, pages };
}

describe('pagination', () => {
  it('pages newest first, 100 by default, with full next_page_uri and null on the last page', async () => {
    const first = await api('GET', '/ip_policies');
    expect(first.body.ip_policies).toHaveLength(100);
    expect(first.body.uri).toBe(`${sandbox.url}/ip_policies`);
    expect(first.body.next_page_uri).toBe(
      `${sandbox.url}/ip_policies?before_id=${created[COUNT - 100]}&limit=100`,
    );
    const { ids, pages } = await walk('/ip_policies');
    expect(pages).toBe(3);
    expect(ids).toEqual([...created].reverse());
  });

  it('honours limit, and ends exactly on the last item', async () => {
    const { ids, pages } = await walk('/ip_policies?limit=23');
    expect(pages).toBe(10);
    expect(ids).toEqual([...created].reverse());
    const last = await api('GET', `/ip_policies?limit=1&before_id=${created[1]}`);
    expect(last.body).toMatchObject({ ip_policies: [{ id: created[0] }], next_page_uri: null });
    const past = await api('GET', `/ip_policies?before_id=${created[0]}`);
    expect(past.body).toMatchObject({ ip_policies: [], next_page_uri: null });
  });

  it('continues after the boundary item is deleted; an unknown before_id is 301', async () => {
    const page = await api('GET', '/ip_policies?limit=50');
    const boundary = page.body.ip_policies.at(-1).id;
    await api('DELETE', `/ip_policies/${boundary}`);
    const next = await api('GET', page.body.next_page_uri);
    expect(next.body.ip_policies[0].id).toBe(created[COUNT - 51]);
    const unknown = await api('GET', '/ip_policies?before_id=ipp_neverexisted');
    expectError(unknown, 'notFound');
    expect(unknown.body.details.field).toBe('before_id');
  });
});
