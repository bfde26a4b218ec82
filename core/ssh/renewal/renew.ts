/**
 * Renewing a saved certificate: the same public key signed again with the same choices, for a
 * window of the same length starting now, written over the certificate file.
 */
import type { SignResult } from '../../../shared/app/ssh/results.ts';
import { issueCertificate, signResultOf } from '../certificates/issue.ts';
import type { SshContext } from '../context.ts';
import { SshError } from '../errors.ts';
import { writeFilesAtomically } from '../files/atomic-write.ts';
import { checkKeyOnDisk } from '../keys/public-key-file.ts';
import { remember, savedById, signingOf } from '../saved-certificates/record.ts';
import { readSaved } from '../saved-certificates/store.ts';

export async function renew(context: SshContext, id: string): Promise<SignResult> {
  const { publicKeyPath, certificatePath } = savedById(context.store, id);
  return context.lockFiles([publicKeyPath, certificatePath], async () => {
    // Read again in turn: a save of the same name before this one replaced or dropped it.
    const previous = readSaved(context.store).find((s) => s.id === id);
    if (!previous)
      throw new SshError(
        'unknown-saved',
        `The certificate ${certificatePath} was replaced or forgotten meanwhile; nothing was renewed`,
      );
    await checkKeyOnDisk(previous.publicKeyPath, previous.publicKey);
    const seconds = Math.round(
      (Date.parse(previous.validUntil) - Date.parse(previous.validAfter)) / 1000,
    );
    const signing = signingOf(previous, seconds);
    const { issued, info } = await issueCertificate(
      context,
      previous.publicKey,
      signing,
      previous.profileId,
    );
    await checkKeyOnDisk(previous.publicKeyPath, previous.publicKey);
    const written = await writeFilesAtomically(
      [{ path: previous.certificatePath, role: 'certificate', content: `${issued.certificate}\n` }],
      { overwrite: true, hooks: context.writeHooks },
    );
    const { certificateId: _id, validAfter: _a, validUntil: _u, renewedAt: _r, ...base } = previous;
    const renewedAt = new Date(context.now()).toISOString();
    return signResultOf(remember(context.store, base, issued, renewedAt), info, written, signing);
  });
}
