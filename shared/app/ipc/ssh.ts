import { z } from 'zod';
import {
  AgentRequest,
  CommandRequest,
  ConfigBlockRequest,
  DecodeRequest,
  GenerateRequest,
  SignExistingRequest,
  TargetQuery,
  TrustRequest,
} from '../ssh/requests.ts';
import { ProfileId } from './profiles.ts';
import {
  GenerateStep,
  SavedCertificate,
  type CertificateAuthorityName,
  type AgentResult,
  type CertificateInfo,
  type ConfigBlock,
  type ExistingFiles,
  type RenewalDue,
  type SignResult,
  type SshCommand,
  type TrustLines,
} from '../ssh/results.ts';

/*
 * SSH keys and certificates (core/ssh) as calls of the contract. Arguments are checked with the
 * service's own request schemas; answers are its plain data types, which core builds and which
 * never hold a private key or a passphrase (those go renderer → core only, or stay in core).
 */

/** Burrow's id of a saved certificate. */
const SavedId = z.string().min(1).max(64);
/** Names the `ssh.progress` events of one generation, chosen by the window. */
const RequestId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

const answer = <T>() => z.custom<T>();

export const sshCalls = {
  /** The folder keys go to unless the person picks another (HOME/.ssh of the app's user). */
  'ssh.defaultFolder': { args: z.tuple([]), result: z.string() },
  /** Which of NAME, NAME.pub and NAME-cert.pub exist, to ask before replacing them. */
  'ssh.existingFiles': { args: z.tuple([TargetQuery]), result: answer<ExistingFiles>() },
  /** A new key signed and saved; steps arrive as `ssh.progress` with the given request id. */
  'ssh.generate': {
    args: z.tuple([GenerateRequest, RequestId.optional()]),
    result: answer<SignResult>(),
  },
  'ssh.signExisting': { args: z.tuple([SignExistingRequest]), result: answer<SignResult>() },
  'ssh.decode': { args: z.tuple([DecodeRequest]), result: answer<CertificateInfo>() },
  'ssh.listSaved': { args: z.tuple([]), result: z.array(SavedCertificate) },
  /** The saved certificates whose renewal is due now, for the badges of the list. */
  'ssh.due': { args: z.tuple([]), result: answer<RenewalDue[]>() },
  /** Forgets a record (the files stay); answers the remaining records. */
  'ssh.forget': { args: z.tuple([SavedId]), result: z.array(SavedCertificate) },
  'ssh.setLeadTime': {
    args: z.tuple([SavedId, z.int().positive().nullable()]),
    result: SavedCertificate,
  },
  'ssh.renew': { args: z.tuple([SavedId]), result: answer<SignResult>() },
  'ssh.command': { args: z.tuple([CommandRequest]), result: answer<SshCommand | null>() },
  /**
   * The agent is the app's own (SSH_AUTH_SOCK): the window may not name another socket, which
   * would let a compromised renderer hand the private key to any process listening there.
   */
  'ssh.addToAgent': {
    args: z.tuple([AgentRequest.omit({ socket: true })]),
    result: answer<AgentResult>(),
  },
  'ssh.writeConfigBlock': { args: z.tuple([ConfigBlockRequest]), result: answer<ConfigBlock>() },
  'ssh.trustLines': { args: z.tuple([TrustRequest]), result: answer<TrustLines>() },
  /** A profile's SSH CAs by id and description (default the active profile's). */
  'ssh.authorities': {
    args: z.tuple([ProfileId.optional()]),
    result: answer<CertificateAuthorityName[]>(),
  },
} as const;

const SshProgress = z.object({
  requestId: RequestId,
  step: GenerateStep,
  message: z.string(),
});
export type SshProgress = z.infer<typeof SshProgress>;

/**
 * A saved certificate's reminder is due: `certId`, `name` and `expiresAt` are what the
 * notification policy's `certificate-expiring` input takes; `key` is the same for one validity
 * window, so one window gives one notification.
 */
const SshCertificateExpiring = z.object({
  certId: z.string(),
  name: z.string(),
  expiresAt: z.string(),
  dueAt: z.string(),
  expired: z.boolean(),
  key: z.string(),
  message: z.string(),
});
export type SshCertificateExpiring = z.infer<typeof SshCertificateExpiring>;

export const sshEvents = {
  'ssh.progress': SshProgress,
  'ssh.certificateExpiring': SshCertificateExpiring,
} as const;
