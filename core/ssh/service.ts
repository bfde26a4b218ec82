/**
 * The SSH facade the UI layer wraps: every input is validated with the shared schemas, every
 * answer is plain JSON data, every failure an SshError (or the API client's ApiError) whose
 * message can be shown as is.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';
import { SshPublicKey } from '../../shared/api/ssh-keys.ts';
import {
  AgentRequest,
  CommandRequest,
  ConfigBlockRequest,
  DecodeRequest,
  GenerateRequest,
  SignExistingRequest,
  TargetQuery,
  TrustRequest,
  type SigningOptions,
} from '../../shared/ssh/requests.ts';
import type {
  AgentResult,
  CertificateInfo,
  ConfigBlock,
  ExistingFiles,
  GenerateProgress,
  RenewalDue,
  SavedCertificate,
  SavedFile,
  SignResult,
  SshCommand,
  TrustLines,
} from '../../shared/ssh/results.ts';
import { addToAgent } from './agent.ts';
import { describeCertificate } from './certificate-info.ts';
import { SshError } from './errors.ts';
import {
  existingPaths,
  pathIn,
  prepareFolder,
  readSmallFile,
  writeFilesAtomically,
  type FileToWrite,
  type WriteHooks,
} from './files.ts';
import { createKeyGenerator, type KeyGenerator } from './keygen.ts';
import { dueForRenewal } from './renewal.ts';
import type { KeyValueStore } from '../store.ts';
import { putSaved, readSaved, removeSaved } from './saved.ts';
import {
  requestCertificate,
  signingWarnings,
  validityWindow,
  type SshApi,
  type Window,
} from './signing.ts';
import { hostBlockText, includeLine, sshCommand, trustLines, type Destination } from './usage.ts';
import { parseInput } from './validate.ts';

/**
 * Which API signs, resolved on each call: no id means the active profile's, an id the profile
 * that signed a saved certificate (renewing goes back to the same account whatever is active).
 */
export type SshApiSource = (
  profileId?: string,
) => Promise<{ readonly profileId: string; readonly api: SshApi }>;

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

/** Key and certificate files are a few kilobytes; anything much larger is not one. */
const MAX_KEY_FILE_BYTES = 64 * 1024;
const CONFIG_FOLDER = 'burrow';

const NAMES = {
  privateKey: (name: string) => name,
  publicKey: (name: string) => `${name}.pub`,
  certificate: (name: string) => `${name}-cert.pub`,
};

/** Where ssh looks for the certificate of a key: `id.pub` → `id-cert.pub`. */
const certificatePathFor = (publicKeyPath: string) =>
  `${publicKeyPath.slice(0, -'.pub'.length)}-cert.pub`;

const keyOnly = (line: string) => line.trim().split(/\s+/).slice(0, 2).join(' ');

export function createSshService(options: SshServiceOptions) {
  const now = options.now ?? Date.now;
  const home = options.home ?? homedir();
  const keygen = options.keyGenerator ?? createKeyGenerator();
  const defaultFolder = path.join(home, '.ssh');
  const apiOf = async (profileId?: string): Promise<{ profileId?: string; api: SshApi }> =>
    typeof options.api === 'function' ? options.api(profileId) : { api: options.api };

  function savedById(id: string): SavedCertificate {
    const saved = readSaved(options.store).find((s) => s.id === id);
    if (!saved) throw new SshError('unknown-saved', 'Burrow has no saved certificate with this id');
    return saved;
  }

  /** Signs `publicKey`, and checks the answer is a certificate of that very key. */
  async function sign(
    publicKey: string,
    signing: SigningOptions,
    window: Window,
    profileId?: string,
  ) {
    const { profileId: signedBy, api } = await apiOf(profileId);
    const issued = await requestCertificate(api, keyOnly(publicKey), signing, window);
    const info = describeCertificate(issued.certificate);
    if (info.publicKey !== keyOnly(publicKey))
      throw new SshError(
        'certificate-mismatch',
        'The service returned a certificate for another key; nothing was saved',
      );
    return { issued: { ...issued, profileId: signedBy }, info };
  }

  /** null for host certificates (they are for sshd) and when the private key's place is unknown. */
  function commandFor(saved: SavedCertificate, to?: Destination): SshCommand | null {
    if (saved.privateKeyPath === null || saved.kind === 'host') return null;
    // The first principal is the user name the certificate is most likely for.
    const user = to?.user ?? saved.principals[0];
    return sshCommand(saved.privateKeyPath, saved.certificatePath, {
      host: 'HOST',
      ...to,
      ...(user !== undefined && { user }),
    });
  }

  function record(
    base: Omit<SavedCertificate, 'certificateId' | 'validAfter' | 'validUntil' | 'renewedAt'>,
    issued: { id: string; valid_after: string; valid_until: string; profileId?: string },
    renewedAt: string | null,
  ): SavedCertificate {
    const saved = {
      ...base,
      ...(issued.profileId !== undefined && { profileId: issued.profileId }),
      certificateId: issued.id,
      validAfter: issued.valid_after,
      validUntil: issued.valid_until,
      renewedAt,
    };
    // A certificate saved over another one's file replaces it: the old record would renew a
    // key that is no longer there into the new key's certificate file.
    for (const other of readSaved(options.store))
      if (other.id !== saved.id && other.certificatePath === saved.certificatePath)
        removeSaved(options.store, other.id);
    putSaved(options.store, saved);
    return saved;
  }

  /** A record of a certificate about to be saved, from the choices it was signed with. */
  function newRecord(
    signing: SigningOptions,
    publicKey: string,
    paths: { privateKey: string | null; publicKey: string; certificate: string },
  ): Omit<SavedCertificate, 'certificateId' | 'validAfter' | 'validUntil' | 'renewedAt'> {
    return {
      id: randomUUID(),
      kind: signing.kind,
      caId: signing.caId,
      publicKey,
      principals: [...signing.principals],
      criticalOptions: { ...signing.criticalOptions },
      extensions: signing.kind === 'user' ? { ...signing.extensions } : {},
      ...(signing.description !== undefined && { description: signing.description }),
      privateKeyPath: paths.privateKey,
      publicKeyPath: paths.publicKey,
      certificatePath: paths.certificate,
      leadTimeSeconds: null,
      savedAt: new Date(now()).toISOString(),
    };
  }

  function resultOf(
    saved: SavedCertificate,
    certificate: CertificateInfo,
    files: SavedFile[],
    signing: SigningOptions,
  ): SignResult {
    return {
      saved,
      certificate,
      files,
      warnings: signingWarnings(signing),
      sshCommand: commandFor(saved),
    };
  }

  function signingOf(saved: SavedCertificate, window: { seconds: number }): SigningOptions {
    return {
      caId: saved.caId,
      kind: saved.kind,
      principals: saved.principals,
      validity: window,
      criticalOptions: saved.criticalOptions,
      extensions: saved.extensions,
      ...(saved.description !== undefined && { description: saved.description }),
    };
  }

  return {
    defaultFolder: () => defaultFolder,

    /** Which of NAME, NAME.pub and NAME-cert.pub already exist, so a UI can ask before replacing. */
    async existingFiles(query: TargetQuery): Promise<ExistingFiles> {
      const { folder = defaultFolder, name } = parseInput(TargetQuery, query, 'Key files');
      const roles = ['private-key', 'public-key', 'certificate'] as const;
      const paths = [NAMES.privateKey(name), NAMES.publicKey(name), NAMES.certificate(name)].map(
        (n) => pathIn(folder, n),
      );
      const present = new Set(await existingPaths(paths));
      return {
        folder: path.resolve(folder),
        files: paths.map((p, i) => ({
          path: p,
          role: roles[i] ?? 'certificate',
          exists: present.has(p),
        })),
      };
    },

    /** A new key pair, signed by the CA, saved as NAME, NAME.pub and NAME-cert.pub. */
    async generateKeyAndCertificate(
      request: GenerateRequest,
      onProgress?: (progress: GenerateProgress) => void,
    ): Promise<SignResult> {
      const {
        key,
        comment,
        passphrase,
        target,
        certificate: signing,
      } = parseInput(GenerateRequest, request, 'New key');
      const folder = await prepareFolder(target.folder ?? defaultFolder);
      const paths = {
        privateKey: pathIn(folder, NAMES.privateKey(target.name)),
        publicKey: pathIn(folder, NAMES.publicKey(target.name)),
        certificate: pathIn(folder, NAMES.certificate(target.name)),
      };
      // Ask before the work, not after: writeFilesAtomically checks again when it writes.
      const present = await existingPaths(Object.values(paths));
      if (present.length > 0 && !target.overwrite)
        throw new SshError(
          'file-exists',
          `Already there: ${present.join(', ')}. Choose another name, or choose to replace.`,
          {
            paths: present,
          },
        );

      const report = (progress: GenerateProgress) => onProgress?.(progress);
      report({ step: 'generating', message: `Generating the ${key.type} key` });
      const pair = await keygen.generate({
        spec: key,
        comment: comment ?? target.name,
        passphrase,
      });
      report({ step: 'signing', message: 'Having the certificate authority sign it' });
      const window = validityWindow(signing.validity, signing.kind, now());
      const { issued, info } = await sign(pair.publicKey, signing, window);
      report({ step: 'saving', message: `Saving the files in ${folder}` });
      const files: FileToWrite[] = [
        { path: paths.privateKey, role: 'private-key', content: pair.privateKey },
        { path: paths.publicKey, role: 'public-key', content: `${pair.publicKey}\n` },
        { path: paths.certificate, role: 'certificate', content: `${issued.certificate}\n` },
      ];
      const written = await writeFilesAtomically(files, {
        overwrite: target.overwrite,
        hooks: options.writeHooks,
      });
      const saved = record(newRecord(signing, pair.publicKey, paths), issued, null);
      return resultOf(saved, info, written, signing);
    },

    /** A certificate for a public key file the person chose, saved beside it as …-cert.pub. */
    async signExistingKey(request: SignExistingRequest): Promise<SignResult> {
      const {
        publicKeyPath,
        overwrite,
        certificate: signing,
      } = parseInput(SignExistingRequest, request, 'Sign a key');
      if (!publicKeyPath.endsWith('.pub'))
        throw new SshError(
          'invalid-public-key',
          `${publicKeyPath} is not a .pub file; choose the public key, never the private one`,
        );
      const text = await readSmallFile(publicKeyPath, MAX_KEY_FILE_BYTES);
      if (text.includes('PRIVATE KEY-----'))
        throw new SshError(
          'invalid-public-key',
          `${publicKeyPath} holds a private key; choose the public key (.pub) instead`,
        );
      const line = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
      if (line.includes('-cert-v01@openssh.com'))
        throw new SshError(
          'invalid-public-key',
          `${publicKeyPath} is a certificate; choose the public key it was made for`,
        );
      if (!SshPublicKey.safeParse(line).success)
        throw new SshError(
          'invalid-public-key',
          `${publicKeyPath} is not an OpenSSH public key ("ssh-ed25519 AAAA… comment")`,
        );

      const certificatePath = pathIn(
        path.dirname(publicKeyPath),
        path.basename(certificatePathFor(publicKeyPath)),
      );
      const privateKeyPath = publicKeyPath.slice(0, -'.pub'.length);
      const hasPrivateKey = (await existingPaths([privateKeyPath])).length > 0;
      const window = validityWindow(signing.validity, signing.kind, now());
      const { issued, info } = await sign(line, signing, window);
      const written = await writeFilesAtomically(
        [{ path: certificatePath, role: 'certificate', content: `${issued.certificate}\n` }],
        { overwrite, hooks: options.writeHooks },
      );
      const saved = record(
        newRecord(signing, line.trim(), {
          privateKey: hasPrivateKey ? privateKeyPath : null,
          publicKey: publicKeyPath,
          certificate: certificatePath,
        }),
        issued,
        null,
      );
      return resultOf(saved, info, written, signing);
    },

    /** Any certificate, from a file or pasted text, as ssh-keygen -L shows it. */
    async decodeCertificate(request: DecodeRequest): Promise<CertificateInfo> {
      const input = parseInput(DecodeRequest, request, 'Certificate');
      if ('text' in input) return describeCertificate(input.text);
      const text = await readSmallFile(input.path, MAX_KEY_FILE_BYTES);
      try {
        return describeCertificate(text);
      } catch (error) {
        // The parser's message quotes the start of the text: of a file that is not a certificate
        // (a private key, anything else a window names) no byte goes back.
        if (error instanceof SshError && error.code === 'invalid-certificate')
          throw new SshError('invalid-certificate', `${input.path} is not an OpenSSH certificate`);
        throw error;
      }
    },

    listSaved: (): SavedCertificate[] => readSaved(options.store),

    /** Forgets a saved certificate; its files stay where they are. */
    forget(id: string): void {
      savedById(id);
      removeSaved(options.store, id);
    },

    /** Remind `seconds` before expiry instead of at two thirds of the lifetime (null: the default). */
    setLeadTime(id: string, seconds: number | null): SavedCertificate {
      if (seconds !== null && !(Number.isInteger(seconds) && seconds > 0))
        throw new SshError(
          'invalid-input',
          'The lead time must be a whole number of seconds above zero',
        );
      const saved = { ...savedById(id), leadTimeSeconds: seconds };
      putSaved(options.store, saved);
      return saved;
    },

    /**
     * Signs the same public key again with the same choices and a window of the same length
     * starting now, and replaces the certificate file atomically.
     */
    async renew(id: string): Promise<SignResult> {
      const previous = savedById(id);
      const seconds = Math.round(
        (Date.parse(previous.validUntil) - Date.parse(previous.validAfter)) / 1000,
      );
      const signing = signingOf(previous, { seconds });
      const { issued, info } = await sign(
        previous.publicKey,
        signing,
        validityWindow(signing.validity, signing.kind, now()),
        previous.profileId,
      );
      const written = await writeFilesAtomically(
        [
          {
            path: previous.certificatePath,
            role: 'certificate',
            content: `${issued.certificate}\n`,
          },
        ],
        { overwrite: true, hooks: options.writeHooks },
      );
      const {
        certificateId: _id,
        validAfter: _a,
        validUntil: _u,
        renewedAt: _r,
        ...base
      } = previous;
      const saved = record(base, issued, new Date(now()).toISOString());
      return resultOf(saved, info, written, signing);
    },

    /** The saved certificates whose renewal is due at `nowMs` (default now). */
    dueForRenewal: (nowMs: number = now()): RenewalDue[] =>
      dueForRenewal(readSaved(options.store), nowMs),

    /** The ssh command for a saved user certificate and a destination the person gives. */
    sshCommand(request: CommandRequest): SshCommand | null {
      const { savedId, ...to } = parseInput(CommandRequest, request, 'ssh command');
      return commandFor(savedById(savedId), to);
    },

    /** Adds the saved key and its certificate to the ssh-agent until the certificate expires. */
    async addToAgent(request: AgentRequest): Promise<AgentResult> {
      const { savedId, passphrase, socket } = parseInput(AgentRequest, request, 'ssh-agent');
      const saved = savedById(savedId);
      if (saved.privateKeyPath === null)
        throw new SshError(
          'invalid-input',
          'Burrow does not know where the private key of this certificate is',
        );
      const lifetimeSeconds = Math.floor((Date.parse(saved.validUntil) - now()) / 1000);
      if (lifetimeSeconds <= 0)
        throw new SshError(
          'certificate-expired',
          `The certificate expired at ${saved.validUntil}; renew it first`,
        );
      const certificate = await readSmallFile(saved.certificatePath, MAX_KEY_FILE_BYTES);
      return addToAgent({
        privateKeyPath: saved.privateKeyPath,
        certificate,
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
      const saved = savedById(savedId);
      if (saved.privateKeyPath === null)
        throw new SshError(
          'invalid-input',
          'Burrow does not know where the private key of this certificate is',
        );
      const configFolder = await prepareFolder(
        path.join(path.dirname(saved.certificatePath), CONFIG_FOLDER),
      );
      const file = pathIn(configFolder, `${hostAlias}.conf`);
      const text = hostBlockText({
        hostAlias,
        hostName,
        user: user ?? (saved.kind === 'user' ? saved.principals[0] : undefined),
        port,
        privateKeyPath: saved.privateKeyPath,
        certificatePath: saved.certificatePath,
      });
      await writeFilesAtomically([{ path: file, role: 'ssh-config', content: text }], {
        overwrite: true,
        hooks: options.writeHooks,
      });
      return { path: file, text, includeLine: includeLine(configFolder) };
    },

    /** Copy-ready lines that make servers trust the CA's user certificates and ssh its hosts. */
    async trustLines(request: TrustRequest): Promise<TrustLines> {
      const input = parseInput(TrustRequest, request, 'Trust lines');
      if ('publicKey' in input) return trustLines(input.publicKey, undefined);
      const { api } = await apiOf();
      const ca = await api.sshCertificateAuthorities.get(input.caId);
      return trustLines(ca.public_key, ca.id);
    },

    /** Stops the key generation thread. */
    close: () => keygen.close(),
  };
}

export type SshService = ReturnType<typeof createSshService>;
