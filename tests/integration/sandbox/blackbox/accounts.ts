/** The accounts every black-box suite starts its sandbox with. */
export const KEYS = {
  alice: 'alice-key-1', // acme, admin
  bob: 'bob-key-1', // acme, not admin
  carol: 'carol-key-1', // other (no abuse reports), admin
  dave: 'dave-key-1', // pager: an account of its own for the pagination walk
} as const;

export const ACCOUNTS = {
  accounts: [
    {
      name: 'acme',
      abuse_reports: true,
      users: [
        { id: 'usr_alice', admin: true, api_keys: [KEYS.alice] },
        { id: 'usr_bob', admin: false, api_keys: [KEYS.bob] },
      ],
      bots: ['bot_ci'],
    },
    {
      name: 'other',
      abuse_reports: false,
      users: [{ id: 'usr_carol', admin: true, api_keys: [KEYS.carol] }],
      bots: [],
    },
    {
      name: 'pager',
      abuse_reports: false,
      users: [{ id: 'usr_dave', admin: true, api_keys: [KEYS.dave] }],
      bots: [],
    },
  ],
};
