/** A certificate for a public key file the person chose, saved beside it as …-cert.pub. */
import path from 'node:path';
import { SignExistingRequest } from '../../../shared/app/ssh/requests.ts';
import type { SignResult } from '../../../shared/app/ssh/results.ts';
import { issueCertificate, signResultOf } from './issue.ts';
import type { SshContext } from '../context.ts';
import { existingPaths, refuseExisting, writeFilesAtomically } from '../files/atomic-write.ts';
import { checkKeyOnDisk, readPublicKeyFile, siblingsOf } from '../keys/public-key-file.ts';
import { newRecord, remember } from '../saved-certificates/record.ts';
import { localPath, parseInput } from '../validate.ts';

export async function signExistingKey(
  context: SshContext,
  request: SignExistingRequest,
): Promise<SignResult> {
  const input = parseInput(SignExistingRequest, request, 'Sign a key');
  const { overwrite, certificate: signing, profileId } = input;
  const publicKeyPath = path.resolve(localPath(input.publicKeyPath, 'publicKeyPath', 'Sign a key'));
  // Beside the resolved key, which has a name before ".pub" (siblingsOf checks): in its folder.
  const { privateKey, certificate: certificatePath } = siblingsOf(publicKeyPath);
  return context.lockFiles([publicKeyPath, certificatePath], async () => {
    // Ask before the call: a certificate the person declines to save must not exist in the account.
    if (!overwrite) refuseExisting(await existingPaths([certificatePath]));
    const line = await readPublicKeyFile(publicKeyPath);
    const hasPrivateKey = (await existingPaths([privateKey])).length > 0;
    const { issued, info } = await issueCertificate(context, line, signing, profileId);
    await checkKeyOnDisk(publicKeyPath, line);
    const written = await writeFilesAtomically(
      [{ path: certificatePath, role: 'certificate', content: `${issued.certificate}\n` }],
      { overwrite, hooks: context.writeHooks },
    );
    const record = newRecord(context, signing, line, {
      privateKey: hasPrivateKey ? privateKey : null,
      publicKey: publicKeyPath,
      certificate: certificatePath,
    });
    return signResultOf(remember(context.store, record, issued, null), info, written, signing);
  });
}
