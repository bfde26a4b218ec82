/**
 * An SSH service on a throwaway home, signing through a real sandbox over loopback with a CA
 * made for the test.
 */
import path from 'node:path';
import Conf from 'conf';
import type { ApiClient } from '../../../../core/api/client.ts';
import {
  createSshService,
  type SshApi,
  type SshService,
  type SshServiceOptions,
} from '../../../../core/ssh/service.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';
import { clientOf, startSandbox } from '../api/support.ts';

export type SshWorld = {
  readonly client: ApiClient;
  readonly home: string;
  readonly caId: string;
  readonly service: SshService;
  close(): Promise<void>;
};

export async function startSshWorld(
  name: string,
  options: Pick<SshServiceOptions, 'now' | 'writeHooks'> & {
    /** What the service signs through; default the client itself. */
    api?: (client: ApiClient) => SshApi;
  } = {},
): Promise<SshWorld> {
  const sandbox = await startSandbox({ apiKey: `${name}-key`, rateLimit: 'off' });
  const { client } = clientOf(sandbox);
  const home = await tempDir(`${name}-`);
  const caId = (await client.sshCertificateAuthorities.create({ private_key_type: 'ed25519' })).id;
  const store = new Conf<Record<string, unknown>>({
    cwd: path.join(home, 'settings'),
    projectName: 'burrow-test',
  });
  const { api, ...rest } = options;
  const service = createSshService({ api: api?.(client) ?? client, store, home, ...rest });
  return {
    client,
    home,
    caId,
    service,
    async close() {
      await service.close();
      await client.close();
      await sandbox.close();
      await removeDir(home);
    },
  };
}
