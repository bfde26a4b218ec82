/** SSH keys and certificates to disk: see service.ts for the facade, docs/ssh.md for the rules. */
export * from './errors.ts';
export type { SshApi } from './certificates/signature-request.ts';
export {
  createSshService,
  type SshApiSource,
  type SshService,
  type SshServiceOptions,
} from './service.ts';
