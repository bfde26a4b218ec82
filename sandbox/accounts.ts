import { z } from 'zod';
import { isIdOf } from '../shared/api/values/ids.ts';

const UserId = z.string().refine((s) => isIdOf('user', s), 'must be a user id such as "usr_alice"');
const BotId = z.string().refine((s) => isIdOf('bot', s), 'must be a bot id such as "bot_ci"');

/** The `--accounts` file: accounts, their users (with API keys) and bots. */
const AccountsFileSchema = z
  .strictObject({
    accounts: z
      .array(
        z.strictObject({
          name: z.string().min(1),
          abuse_reports: z.boolean().default(false),
          users: z
            .array(
              z.strictObject({
                id: UserId,
                admin: z.boolean().default(false),
                api_keys: z.array(z.string().regex(/^\S+$/, 'must be a non-empty token')),
              }),
            )
            .min(1),
          bots: z.array(BotId).default(() => []),
        }),
      )
      .min(1),
  })
  .superRefine((file, ctx) => {
    const names = new Set<string>();
    const keys = new Set<string>();
    file.accounts.forEach((account, a) => {
      if (names.has(account.name))
        ctx.addIssue({ code: 'custom', path: ['accounts', a, 'name'], message: 'is a duplicate' });
      names.add(account.name);
      const owners = new Set<string>();
      for (const [u, user] of account.users.entries()) {
        if (owners.has(user.id))
          ctx.addIssue({
            code: 'custom',
            path: ['accounts', a, 'users', u, 'id'],
            message: 'is a duplicate',
          });
        owners.add(user.id);
        for (const [k, key] of user.api_keys.entries()) {
          if (keys.has(key))
            ctx.addIssue({
              code: 'custom',
              path: ['accounts', a, 'users', u, 'api_keys', k],
              message: 'is used twice: an API key identifies one user',
            });
          keys.add(key);
        }
      }
      for (const [b, bot] of account.bots.entries()) {
        if (owners.has(bot))
          ctx.addIssue({
            code: 'custom',
            path: ['accounts', a, 'bots', b],
            message: 'is a duplicate',
          });
        owners.add(bot);
      }
    });
  });

/** As written in the file (defaults optional). */
export type AccountsFile = z.input<typeof AccountsFileSchema>;
export type AccountsConfig = z.output<typeof AccountsFileSchema>;

/** Validates a parsed accounts file; the error names the first offending field. */
export function parseAccountsFile(json: unknown): AccountsConfig {
  const result = AccountsFileSchema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? issue.path.map(String).join('.') : '';
  throw new Error(
    `invalid accounts file: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`,
  );
}

/** The account a sandbox has when no accounts file is given: one admin with one key. */
const DEFAULT_ACCOUNT_NAME = 'default';
const DEFAULT_USER_ID = 'usr_sandbox';

export function defaultAccounts(apiKey: string): AccountsConfig {
  return {
    accounts: [
      {
        name: DEFAULT_ACCOUNT_NAME,
        abuse_reports: true,
        users: [{ id: DEFAULT_USER_ID, admin: true, api_keys: [apiKey] }],
        bots: [],
      },
    ],
  };
}
