import { describe, expect, it } from 'vitest';
import { parseAccountsFile } from '../../../sandbox/accounts.ts';

const user = (id: string, keys: string[], admin = false) => ({ id, admin, api_keys: keys });

describe('accounts file', () => {
  it('takes the documented shape with defaults', () => {
    const parsed = parseAccountsFile({ accounts: [{ name: 'a', users: [user('usr_a', ['k'])] }] });
    expect(parsed.accounts[0]).toEqual({
      name: 'a',
      abuse_reports: false,
      users: [user('usr_a', ['k'])],
      bots: [],
    });
  });

  it('names the first problem', () => {
    expect(() => parseAccountsFile({})).toThrow(/accounts/);
    expect(() =>
      parseAccountsFile({ accounts: [{ name: 'a', users: [user('alice', [])] }] }),
    ).toThrow(/accounts\.0\.users\.0\.id/);
    expect(() =>
      parseAccountsFile({
        accounts: [{ name: 'a', users: [user('usr_a', ['k']), user('usr_b', ['k'])] }],
      }),
    ).toThrow(/api_keys\.0: is used twice/);
    expect(() =>
      parseAccountsFile({
        accounts: [
          { name: 'a', users: [user('usr_a', [])] },
          { name: 'a', users: [user('usr_b', [])] },
        ],
      }),
    ).toThrow(/accounts\.1\.name: is a duplicate/);
    expect(() =>
      parseAccountsFile({ accounts: [{ name: 'a', users: [user('usr_a', [])], bots: ['usr_x'] }] }),
    ).toThrow(/bots\.0/);
    expect(() =>
      parseAccountsFile({ accounts: [{ name: 'a', users: [user('usr_a', [])], extra: 1 }] }),
    ).toThrow();
  });
});
