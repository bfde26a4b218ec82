/**
 * The SSH facade the UI layer wraps, and the one entry to core/ssh for the rest of the app (with
 * handlers.ts, the contract's calls): every input is validated with the shared schemas, every
 * answer is plain JSON data, every failure an SshError (or the API client's ApiError) whose
 * message can be shown as is. Each operation lives in its own module; this one wires them.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import {
  AgentRequest,
  CommandRequest,
  ConfigBlockRequest,
  DecodeRequest,
  TrustRequest,
  type GenerateRequest,
  type SignExistingRequest,
  type TargetQuery,
} from '../../shared/app/ssh/requests.ts';
import type {
  AgentResult,
  CertificateAuthorityName,
  CertificateInfo,
  ConfigBlock,
  GenerateProgress,
  RenewalDue,
  SavedCertificate,
  SshCommand,
  TrustLines,
} from '../../shared/app/ssh/results.ts';
import { addToAgent } from './usage/ssh-agent.ts';
import { describeCertificate } from './certificates/info.ts';
import type { SshApiSource, SshContext } from './context.ts';
import { SshError } from './errors.ts';
import { writeFilesAtomically, type WriteHooks } from './files/atomic-write.ts';
import { pathIn, prepareFolder } from './files/folder.ts';
import { MAX_KEY_FILE_BYTES, readSmallFile } from './files/small-file.ts';
import { existingFiles, generateKeyAndCertificate } from './certificates/new-key.ts';
import { createKeyGenerator, type KeyGenerator } from './keys/generator.ts';
import { privateKeyOf, savedById } from './saved-certificates/record.ts';
import { renew } from './renewal/renew.ts';
import { dueForRenewal } from './renewal/due.ts';
import type { KeyValueStore } from '../store.ts';
import { putSaved, readSaved, removeSaved } from './saved-certificates/store.ts';
import { signExistingKey } from './certificates/existing-key.ts';
import type { SshApi } from './certificates/signature-request.ts';
import { createFileLocks } from './files/locks.ts';
import { commandOf } from './usage/ssh-command.ts';
import { hostBlockText, includeLine } from './usage/ssh-config.ts';
import { trustLines } from './usage/trust-lines.ts';
import { localPath, parseInput } from './validate.ts';

export type { SshApiSource } from './context.ts';
export type { SshApi } from './certificates/signature-request.ts';
export { SshError, type SshErrorCode } from './errors.ts';
export { SAVED_CERTIFICATES_KEY } from './saved-certificates/store.ts';

export type SshServiceOptions = {
  /** One API client (or anything with its SSH methods), or a source of the profiles' clients. */
  readonly api: SshApi | SshApiSource;
  /** Where saved certificates are remembered (a conf / electron-store instance). */
  readonly store: Pick<KeyValueStore, 'get' | 'set'>;
  /** Wall-clock time in ms since the epoch; default Date.now. */
  readonly now?: () => number;
  /** The person's home folder; default os.homedir(). The default key folder is HOME/.ssh. */
  readonly home?: string;
  /** Default: one worker thread, started on first use. */
  readonly keyGenerator?: KeyGenerator;
  /** Test seam for failures between writing and putting files in place. */
  readonly writeHooks?: WriteHooks;
};

const CONFIG_FOLDER = 'burrow';

export function createSshService(options: SshServiceOptions) {
  const keyGenerator = options.keyGenerator ?? createKeyGenerator();
  const defaultFolder = path.join(options.home ?? homedir(), '.ssh');
  const context: SshContext = {
    store: options.store,
    now: options.now ?? Date.now,
    apiOf: async (profileId) =>
      typeof options.api === 'function' ? options.api(profileId) : { api: options.api },
    writeHooks: options.writeHooks,
    lockFiles: createFileLocks(),
  };
  const saved = (id: string) => savedById(options.store, id);

  return {
    defaultFolder: () => defaultFolder,

    /** Which of NAME, NAME.pub and NAME-cert.pub already exist, so a UI can ask before replacing. */
    existingFiles: (query: TargetQuery) => existingFiles(context, defaultFolder, query),

    /** A new key pair, signed by the CA, saved as NAME, NAME.pub and NAME-cert.pub. */
    generateKeyAndCertificate: (
      request: GenerateRequest,
      onProgress?: (progress: GenerateProgress) => void,
    ) => generateKeyAndCertificate(context, keyGenerator, defaultFolder, request, onProgress),

    /** A certificate for a public key file the person chose, saved beside it as …-cert.pub. */
    signExistingKey: (request: SignExistingRequest) => signExistingKey(context, request),

    /** Any certificate, from a file or pasted text, as ssh-keygen -L shows it. */
    async decodeCertificate(request: DecodeRequest): Promise<CertificateInfo> {
      const input = parseInput(DecodeRequest, request, 'Certificate');
      if ('text' in input) return describeCertificate(input.text);
      const file = localPath(input.path, 'path', 'Certificate');
      const text = await readSmallFile(file, MAX_KEY_FILE_BYTES);
      try {
        return describeCertificate(text);
      } catch (error) {
        // The parser's message quotes the start of the text: of a file that is not a certificate
        // (a private key, anything else a window names) no byte goes back.
        if (error instanceof SshError && error.code === 'invalid-certificate')
          throw new SshError('invalid-certificate', `${file} is not an OpenSSH certificate`);
        throw error;
      }
    },

    listSaved: (): SavedCertificate[] => readSaved(options.store),

    /** Forgets a saved certificate; its files stay where they are. */
    forget(id: string): void {
      saved(id);
      removeSaved(options.store, id);
    },

    /** Remind `seconds` before expiry instead of at two thirds of the lifetime (null: the default). */
    setLeadTime(id: string, seconds: number | null): SavedCertificate {
      if (seconds !== null && !(Number.isInteger(seconds) && seconds > 0))
        throw new SshError(
          'invalid-input',
          'The lead time must be a whole number of seconds above zero',
        );
      const updated = { ...saved(id), leadTimeSeconds: seconds };
      putSaved(options.store, updated);
      return updated;
    },

    /** Same key, same choices, a window of the same length from now; the file replaced. */
    renew: (id: string) => renew(context, id),

    /** The saved certificates whose renewal is due at `nowMs` (default now). */
    dueForRenewal: (nowMs: number = context.now()): RenewalDue[] =>
      dueForRenewal(readSaved(options.store), nowMs),

    /** The ssh command for a saved user certificate and a destination the person gives. */
    sshCommand(request: CommandRequest): SshCommand | null {
      const { savedId, ...to } = parseInput(CommandRequest, request, 'ssh command');
      return commandOf(saved(savedId), to);
    },

    /** Adds the saved key and its certificate to the ssh-agent until the certificate expires. */
    async addToAgent(request: AgentRequest): Promise<AgentResult> {
      const { savedId, passphrase, socket } = parseInput(AgentRequest, request, 'ssh-agent');
      const certificate = saved(savedId);
      const privateKeyPath = privateKeyOf(certificate);
      const lifetimeSeconds = Math.floor(
        (Date.parse(certificate.validUntil) - context.now()) / 1000,
      );
      if (lifetimeSeconds <= 0)
        throw new SshError(
          'certificate-expired',
          `The certificate expired at ${certificate.validUntil}; renew it first`,
        );
      return addToAgent({
        privateKeyPath,
        certificate: await readSmallFile(certificate.certificatePath, MAX_KEY_FILE_BYTES),
        lifetimeSeconds,
        passphrase,
        socket: socket ?? process.env['SSH_AUTH_SOCK'],
      });
    },

    /**
     * A `Host` block for the saved key in its own file, FOLDER/burrow/ALIAS.conf, and the
     * `Include` line for the person's ~/.ssh/config, which Burrow never edits.
     */
    async writeConfigBlock(request: ConfigBlockRequest): Promise<ConfigBlock> {
      const { savedId, hostAlias, hostName, user, port } = parseInput(
        ConfigBlockRequest,
        request,
        'ssh_config',
      );
      const certificate = saved(savedId);
      const privateKeyPath = privateKeyOf(certificate);
      const configFolder = await prepareFolder(
        path.join(path.dirname(certificate.certificatePath), CONFIG_FOLDER),
      );
      const file = pathIn(configFolder, `${hostAlias}.conf`);
      const text = hostBlockText({
        hostAlias,
        hostName,
        user: user ?? (certificate.kind === 'user' ? certificate.principals[0] : undefined),
        port,
        privateKeyPath,
        certificatePath: certificate.certificatePath,
      });
      await context.lockFiles([file], () =>
        writeFilesAtomically([{ path: file, role: 'ssh-config', content: text }], {
          overwrite: true,
          hooks: context.writeHooks,
        }),
      );
      return { path: file, text, includeLine: includeLine(configFolder) };
    },

    /** Copy-ready lines that make servers trust the CA's user certificates and ssh its hosts. */
    async trustLines(request: TrustRequest): Promise<TrustLines> {
      const input = parseInput(TrustRequest, request, 'Trust lines');
      if ('publicKey' in input) return trustLines(input.publicKey, undefined);
      const { api } = await context.apiOf();
      const ca = await api.sshCertificateAuthorities.get(input.caId);
      return trustLines(ca.public_key, ca.id);
    },

    /**
     * The SSH certificate authorities of `profileId` (default the active profile), for a
     * command that names its CA by description.
     */
    async authorities(profileId?: string): Promise<CertificateAuthorityName[]> {
      const { api } = await context.apiOf(profileId);
      const all = await api.sshCertificateAuthorities.listAll();
      return all.map(({ id, description }) => ({ id, description: description ?? '' }));
    },

    /** Stops the key generation thread. */
    close: () => keyGenerator.close(),
  };
}

export type SshService = ReturnType<typeof createSshService>;
