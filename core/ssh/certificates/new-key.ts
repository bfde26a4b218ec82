/** A new key pair, signed by the CA and saved as NAME, NAME.pub and NAME-cert.pub. */
import path from 'node:path';
import { GenerateRequest, TargetQuery } from '../../../shared/app/ssh/requests.ts';
import type {
  ExistingFiles,
  GenerateProgress,
  SignResult,
} from '../../../shared/app/ssh/results.ts';
import { issueCertificate, signResultOf } from './issue.ts';
import type { SshContext } from '../context.ts';
import { existingPaths, refuseExisting, writeFilesAtomically } from '../files/atomic-write.ts';
import { pathIn, prepareFolder } from '../files/folder.ts';
import type { KeyGenerator } from '../keys/generator.ts';
import { newRecord, remember } from '../saved-certificates/record.ts';
import { localPath, parseInput } from '../validate.ts';

/** The files of the key NAME in `folder`, in the order they are written. */
function keyFilesIn(folder: string, name: string) {
  return {
    privateKey: pathIn(folder, name),
    publicKey: pathIn(folder, `${name}.pub`),
    certificate: pathIn(folder, `${name}-cert.pub`),
  };
}

/**
 * Which of NAME, NAME.pub and NAME-cert.pub already exist, so a UI can ask before replacing; the
 * leftovers of an interrupted save of the name are taken back first, as a save would.
 */
export async function existingFiles(
  context: SshContext,
  defaultFolder: string,
  query: TargetQuery,
): Promise<ExistingFiles> {
  const { folder = defaultFolder, name } = parseInput(TargetQuery, query, 'Key files');
  const files = keyFilesIn(localPath(folder, 'folder', 'Key files'), name);
  const present = new Set(
    await context.lockFiles(Object.values(files), () => existingPaths(Object.values(files))),
  );
  return {
    folder: path.resolve(folder),
    files: (
      [
        ['private-key', files.privateKey],
        ['public-key', files.publicKey],
        ['certificate', files.certificate],
      ] as const
    ).map(([role, p]) => ({ path: p, role, exists: present.has(p) })),
  };
}

export async function generateKeyAndCertificate(
  context: SshContext,
  keyGenerator: KeyGenerator,
  defaultFolder: string,
  request: GenerateRequest,
  onProgress?: (progress: GenerateProgress) => void,
): Promise<SignResult> {
  const {
    key,
    comment,
    passphrase,
    target,
    certificate: signing,
    profileId,
  } = parseInput(GenerateRequest, request, 'New key');
  const chosen = target.folder && localPath(target.folder, 'target.folder', 'New key');
  const folder = await prepareFolder(chosen ?? defaultFolder);
  const paths = keyFilesIn(folder, target.name);
  return context.lockFiles(Object.values(paths), async () => {
    // Ask before the work, not after: writeFilesAtomically checks again when it writes.
    if (!target.overwrite) refuseExisting(await existingPaths(Object.values(paths)));

    const report = (progress: GenerateProgress) => onProgress?.(progress);
    report({ step: 'generating', message: `Generating the ${key.type} key` });
    const pair = await keyGenerator.generate({
      spec: key,
      comment: comment ?? target.name,
      passphrase,
    });
    report({ step: 'signing', message: 'Having the certificate authority sign it' });
    const { issued, info } = await issueCertificate(context, pair.publicKey, signing, profileId);
    report({ step: 'saving', message: `Saving the files in ${folder}` });
    const written = await writeFilesAtomically(
      [
        { path: paths.privateKey, role: 'private-key', content: pair.privateKey },
        { path: paths.publicKey, role: 'public-key', content: `${pair.publicKey}\n` },
        { path: paths.certificate, role: 'certificate', content: `${issued.certificate}\n` },
      ],
      { overwrite: target.overwrite, hooks: context.writeHooks },
    );
    const saved = remember(
      context.store,
      newRecord(context, signing, pair.publicKey, paths),
      issued,
      null,
    );
    return signResultOf(saved, info, written, signing);
  });
}
