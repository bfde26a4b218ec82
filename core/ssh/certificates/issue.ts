/** A certificate for a key, checked to certify that very key, and the answer of a saved one. */
import type { SigningOptions } from '../../../shared/app/ssh/requests.ts';
import type {
  CertificateInfo,
  SavedCertificate,
  SavedFile,
  SignResult,
} from '../../../shared/app/ssh/results.ts';
import { describeCertificate } from './info.ts';
import type { SshContext } from '../context.ts';
import { SshError } from '../errors.ts';
import { keyOnly } from '../keys/public-key-file.ts';
import { requestCertificate, signingWarnings, validityWindow } from './signature-request.ts';
import { commandOf } from '../usage/ssh-command.ts';

/** Signs `publicKey` with the API of `profileId` (default the active one), valid from now. */
export async function issueCertificate(
  context: Pick<SshContext, 'apiOf' | 'now'>,
  publicKey: string,
  signing: SigningOptions,
  profileId?: string,
) {
  const window = validityWindow(signing.validity, signing.kind, context.now());
  const { profileId: signedBy, api } = await context.apiOf(profileId);
  const issued = await requestCertificate(api, keyOnly(publicKey), signing, window);
  const info = describeCertificate(issued.certificate);
  if (info.publicKey !== keyOnly(publicKey))
    throw new SshError(
      'certificate-mismatch',
      'The service returned a certificate for another key; nothing was saved',
    );
  return { issued: { ...issued, profileId: signedBy }, info };
}

/** What a save of a signed certificate answers: the record, the certificate, files and warnings. */
export function signResultOf(
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
    sshCommand: commandOf(saved),
  };
}
