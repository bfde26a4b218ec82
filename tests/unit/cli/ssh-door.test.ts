import { expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type Options } from '../../../cli/args.ts';
import { sshCommand, type SshDoor } from '../../../cli/ssh.ts';
import type { Target } from '../../../cli/target.ts';
import type { EventHub } from '../../../core/ipc/events.ts';
import { sshHandlers } from '../../../core/ssh/handlers.ts';
import type { SshService } from '../../../core/ssh/service.ts';
import type { SavedCertificate, SignResult } from '../../../shared/app/ssh/results.ts';
import { quietIo } from '../../support/quiet-io.ts';

/*
 * One door: `burrow ssh new|sign|renew` and the window's `ssh.*` calls reach the same methods of
 * core/ssh's service (a stand-in here, recording what it is asked), so a rule of saving keys and
 * certificates lives once.
 */

const saved = {
  id: 'crt_1',
  kind: 'user',
  principals: [],
  validUntil: '2026-12-01T00:00:00Z',
  publicKeyPath: '/keys/id_test.pub',
  certificatePath: '/keys/id_test-cert.pub',
} as unknown as SavedCertificate;
const result = { saved, files: [], warnings: [], sshCommand: null } as unknown as SignResult;

function recording() {
  const calls: string[] = [];
  const door: SshDoor = {
    generateKeyAndCertificate: () => (
      calls.push('generateKeyAndCertificate'),
      Promise.resolve(result)
    ),
    signExistingKey: () => (calls.push('signExistingKey'), Promise.resolve(result)),
    renew: () => (calls.push('renew'), Promise.resolve(result)),
    listSaved: () => (calls.push('listSaved'), [saved]),
  };
  return { calls, door };
}

const options: Options = {
  ...DEFAULT_OPTIONS,
  json: true,
  ssh: { ...DEFAULT_OPTIONS.ssh, principals: ['me'], ca: 'sshca_1a2b3c4d5e6f7g8h9i0j1k2l3m4' },
};
const io = quietIo('/keys');
const target = { profileId: 'prf_a', label: 'Local sandbox' } as unknown as Target;

it('burrow ssh new|sign|renew and the window reach the same service methods', async () => {
  const cli = recording();
  await sshCommand(target, 'new', 'id_test', options, io, cli.door);
  await sshCommand(target, 'sign', 'id_test.pub', options, io, cli.door);
  await sshCommand(target, 'renew', 'id_test', options, io, cli.door);

  const window = recording();
  const handlers = sshHandlers(
    window.door as SshService,
    { emit: () => undefined } as unknown as EventHub,
  );
  const request = {} as never;
  await handlers['ssh.generate'](request, undefined);
  await handlers['ssh.signExisting'](request);
  await handlers['ssh.renew']('crt_1');

  expect(cli.calls.filter((c) => c !== 'listSaved')).toEqual(window.calls);
  expect(window.calls).toEqual(['generateKeyAndCertificate', 'signExistingKey', 'renew']);
});
