import { expect, it } from 'vitest';
import { addToAgent, noAgent } from '../../../../core/ssh/usage/ssh-agent.ts';

it('says how to start an agent on a Linux or macOS desktop', () => {
  for (const platform of ['linux', 'darwin'] as const)
    expect(noAgent(platform).message).toContain('eval "$(ssh-agent -s)"');
});

it('names the OpenSSH Authentication Agent service on Windows', () => {
  expect(noAgent('win32').message).toContain('OpenSSH Authentication Agent');
});

it('refuses an add with no agent socket, saying how to start one', async () => {
  await expect(
    addToAgent({
      privateKeyPath: '/nowhere/id',
      certificate: '',
      lifetimeSeconds: 60,
      passphrase: '',
      socket: undefined,
    }),
  ).rejects.toThrow(/SSH_AUTH_SOCK is not set\). Start one with/);
});
