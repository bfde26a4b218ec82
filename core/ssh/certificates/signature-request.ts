/** Having a CA of the account sign a public key, through the API client. */
import type {
  SSHHostCertificate,
  SSHUserCertificate,
} from '../../../shared/api/kinds/ssh-certificates.ts';
import {
  DEFAULT_VALIDITY,
  VALIDITY_PRESETS,
  type SigningOptions,
  type Validity,
} from '../../../shared/app/ssh/requests.ts';
import type { ApiFacade } from '../../api/types.ts';

/** The part of the API client signing needs. */
export type SshApi = {
  readonly sshCertificateAuthorities: Pick<
    ApiFacade['sshCertificateAuthorities'],
    'get' | 'listAll'
  >;
  readonly sshUserCertificates: Pick<ApiFacade['sshUserCertificates'], 'create'>;
  readonly sshHostCertificates: Pick<ApiFacade['sshHostCertificates'], 'create'>;
};

export type Window = { readonly validAfter: string; readonly validUntil: string };

/** Certificates count whole seconds; so does the window, so that what is asked is what is signed. */
const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The validity window a choice means when the key is signed at `nowMs`. */
export function validityWindow(
  validity: Validity | undefined,
  kind: 'user' | 'host',
  nowMs: number,
): Window {
  const chosen = validity ?? { preset: DEFAULT_VALIDITY[kind] };
  if ('validAfter' in chosen)
    return {
      validAfter: iso(wholeSecond(Date.parse(chosen.validAfter))),
      validUntil: iso(wholeSecond(Date.parse(chosen.validUntil))),
    };
  const seconds = 'preset' in chosen ? VALIDITY_PRESETS[chosen.preset] : chosen.seconds;
  const start = wholeSecond(nowMs);
  return { validAfter: iso(start), validUntil: iso(start + seconds * 1000) };
}

/** What a person should know before using the certificate, in plain words. */
export function signingWarnings(options: SigningOptions): string[] {
  if (options.principals.length > 0) return [];
  return [
    options.kind === 'user'
      ? 'No principals: this certificate lets its holder log in as any user on every server that trusts the CA.'
      : 'No principals: this host certificate is valid for any host name.',
  ];
}

/** One signature by the CA of `options.caId` over `publicKey`, valid for `window`. */
export async function requestCertificate(
  api: SshApi,
  publicKey: string,
  options: SigningOptions,
  window: Window,
): Promise<SSHUserCertificate | SSHHostCertificate> {
  const common = {
    ssh_certificate_authority_id: options.caId,
    public_key: publicKey,
    principals: [...options.principals],
    valid_after: window.validAfter,
    valid_until: window.validUntil,
    ...(options.description !== undefined && { description: options.description }),
  };
  if (options.kind === 'host') return api.sshHostCertificates.create(common);
  return api.sshUserCertificates.create({
    ...common,
    critical_options: { ...options.criticalOptions },
    extensions: { ...options.extensions },
  });
}
