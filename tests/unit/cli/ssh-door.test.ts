import { expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type Options } from '../../../cli/args.ts';
import type { Door } from '../../../cli/door.ts';
import { sshCommand } from '../../../cli/ssh.ts';
import type { EventHub } from '../../../core/ipc/events.ts';
import { sshHandlers } from '../../../core/ssh/handlers.ts';
import type { SshService } from '../../../core/ssh/service.ts';
import type { SavedCertificate, SignResult } from '../../../shared/app/ssh/results.ts';
import { quietIo } from '../../support/quiet-io.ts';

/*
 * One door: `burrow ssh new|sign|renew` sends the window's own `ssh.*` calls, which reach the
 * same methods of core/ssh's service (a stand-in here, recording what it is asked and for which
 * profile), so a rule of saving keys and certificates lives once.
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

type Recorded = { readonly method: string; readonly profileId?: string | undefined };

function recording() {
  const calls: Recorded[] = [];
  const asked = (method: string, request?: { profileId?: string }) =>
    calls.push({ method, profileId: request?.profileId });
  const service = {
    generateKeyAndCertificate: (request: { profileId?: string }) => (
      asked('generateKeyAndCertificate', request),
      Promise.resolve(result)
    ),
    signExistingKey: (request: { profileId?: string }) => (
      asked('signExistingKey', request),
      Promise.resolve(result)
    ),
    renew: () => (asked('renew'), Promise.resolve(result)),
    listSaved: () => (asked('listSaved'), [saved]),
  } as unknown as SshService;
  return { calls, service };
}

const options: Options = {
  ...DEFAULT_OPTIONS,
  json: true,
  ssh: { ...DEFAULT_OPTIONS.ssh, principals: ['me'], ca: 'sshca_1a2b3c4d5e6f7g8h9i0j1k2l3m4' },
};
const io = quietIo('/keys');
const account = { profileId: 'prf_staging01', name: 'Staging' };

it("burrow ssh new|sign|renew sends the window's calls, on its own profile", async () => {
  const cli = recording();
  const handlers = sshHandlers(cli.service, { emit: () => undefined } as unknown as EventHub);
  const sent: string[] = [];
  const door = {
    call: async (name: keyof typeof handlers, ...args: unknown[]) => {
      sent.push(name);
      return (handlers[name] as (...a: unknown[]) => unknown)(...args);
    },
  } as unknown as Door;
  await sshCommand(door, account, 'new', 'id_test', options, io);
  await sshCommand(door, account, 'sign', 'id_test.pub', options, io);
  await sshCommand(door, account, 'renew', 'id_test', options, io);
  expect(sent).toEqual(['ssh.generate', 'ssh.signExisting', 'ssh.listSaved', 'ssh.renew']);

  const window = recording();
  const windowHandlers = sshHandlers(window.service, {
    emit: () => undefined,
  } as unknown as EventHub);
  const request = {} as never;
  await windowHandlers['ssh.generate'](request, undefined);
  await windowHandlers['ssh.signExisting'](request);
  await windowHandlers['ssh.renew']('crt_1');

  const methods = (calls: readonly Recorded[]) =>
    calls.map((c) => c.method).filter((m) => m !== 'listSaved');
  expect(methods(cli.calls)).toEqual(methods(window.calls));
  expect(methods(window.calls)).toEqual(['generateKeyAndCertificate', 'signExistingKey', 'renew']);
  // The command signs through the profile it names, whichever the window has active.
  expect(cli.calls.slice(0, 2).map((c) => c.profileId)).toEqual([
    account.profileId,
    account.profileId,
  ]);
});
