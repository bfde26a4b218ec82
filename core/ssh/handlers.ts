import type { sshCalls } from '../../shared/app/ipc/ssh.ts';
import type { EventHub } from '../ipc/events.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { SshService } from './service.ts';

/** The SSH calls of the contract, carried to the SSH service; generation steps become events. */
export function sshHandlers(ssh: SshService, events: EventHub): HandlersOf<typeof sshCalls> {
  return {
    'ssh.defaultFolder': () => ssh.defaultFolder(),
    'ssh.existingFiles': (query) => ssh.existingFiles(query),
    'ssh.generate': (request, requestId) =>
      ssh.generateKeyAndCertificate(request, ({ step, message }) => {
        if (requestId !== undefined) events.emit('ssh.progress', { requestId, step, message });
      }),
    'ssh.signExisting': (request) => ssh.signExistingKey(request),
    'ssh.decode': (request) => ssh.decodeCertificate(request),
    'ssh.listSaved': () => ssh.listSaved(),
    'ssh.due': () => ssh.dueForRenewal(),
    'ssh.forget': (id) => {
      ssh.forget(id);
      return ssh.listSaved();
    },
    'ssh.setLeadTime': (id, seconds) => ssh.setLeadTime(id, seconds),
    'ssh.renew': (id) => ssh.renew(id),
    'ssh.command': (request) => ssh.sshCommand(request),
    'ssh.addToAgent': (request) => ssh.addToAgent(request),
    'ssh.writeConfigBlock': (request) => ssh.writeConfigBlock(request),
    'ssh.trustLines': (request) => ssh.trustLines(request),
    'ssh.authorities': (profileId) => ssh.authorities(profileId),
  };
}
