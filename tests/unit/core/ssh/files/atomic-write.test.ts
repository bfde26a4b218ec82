/**
 * The file rules of core/ssh/files/atomic-write.ts on a real file system: modes, no overwrite
 * without the choice, no writing through symlinks, and a failure at any point between writing
 * and putting files in place leaves the old files whole and no new file behind (a crash there:
 * the integration tests' killed-saves.test.ts).
 */
import { lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SshError } from '../../../../../core/ssh/errors.ts';
import { writeFilesAtomically } from '../../../../../core/ssh/files/atomic-write.ts';
import { pathIn, prepareFolder } from '../../../../../core/ssh/files/folder.ts';
import { KeyFileName } from '../../../../../shared/app/ssh/requests.ts';
import { removeDir, tempDir } from '../../../../support/openssh.ts';
import { rejection as rejectionOf } from '../../../../support/rejection.ts';
import { contentsOf, keyFileSet } from '../fixtures.ts';

let dir: string;

beforeEach(async () => {
  dir = await tempDir('burrow-files-');
});
afterEach(() => removeDir(dir));

const set = (content: string) => keyFileSet(dir, content);
const contents = () => contentsOf(set(''));
const mode = async (file: string) => (await stat(file)).mode & 0o777;

const sshError = (promise: Promise<unknown>) => rejectionOf(promise, SshError);

describe('writing', () => {
  it('writes the private key 0600 and the public files 0644, whatever the umask', async () => {
    const saved = await writeFilesAtomically(set('v1'), { overwrite: false });
    expect(await contents()).toEqual(['private v1', 'public v1', 'cert v1']);
    expect(await Promise.all(saved.map((f) => mode(f.path)))).toEqual([0o600, 0o644, 0o644]);
    expect(saved.map((f) => f.mode)).toEqual([0o600, 0o644, 0o644]);
    // Nothing but the three files: no temporary or backup names left over.
    expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
  });

  it('creates a missing folder 0700, and refuses a file where the folder should be', async () => {
    const folder = await prepareFolder(path.join(dir, 'home', '.ssh'));
    expect(await mode(folder)).toBe(0o700);
    await writeFile(path.join(dir, 'plain'), '');
    expect((await sshError(prepareFolder(path.join(dir, 'plain')))).code).toBe('not-a-folder');
  });
});

describe('no overwrite without the choice', () => {
  it('refuses before writing anything, naming every file that exists', async () => {
    await writeFile(path.join(dir, 'id.pub'), 'mine');
    const error = await sshError(writeFilesAtomically(set('v2'), { overwrite: false }));
    expect(error.code).toBe('file-exists');
    expect(error.paths).toEqual([path.join(dir, 'id.pub')]);
    expect(error.message).toContain('id.pub');
    expect(await contents()).toEqual([undefined, 'mine', undefined]);
    expect(await readdir(dir)).toEqual(['id.pub']);
  });

  it('replaces when asked to', async () => {
    await writeFilesAtomically(set('v1'), { overwrite: false });
    await writeFilesAtomically(set('v2'), { overwrite: true });
    expect(await contents()).toEqual(['private v2', 'public v2', 'cert v2']);
    expect(await mode(path.join(dir, 'id'))).toBe(0o600);
  });

  it('does not replace a file that appears between the check and the write', async () => {
    const error = await sshError(
      writeFilesAtomically(set('v1'), {
        overwrite: false,
        hooks: {
          beforeCommit: async (target, i) => {
            if (i === 2) await writeFile(target, 'raced');
          },
        },
      }),
    );
    expect(error.code).toBe('file-exists');
    expect(await contents()).toEqual([undefined, undefined, 'raced']);
  });
});

describe('symlinks', () => {
  it('refuses a symlink planted at a target, even with overwrite, and leaves its target alone', async () => {
    const victim = path.join(dir, 'victim');
    await writeFile(victim, 'precious');
    await symlink(victim, path.join(dir, 'id'));
    for (const overwrite of [false, true]) {
      const error = await sshError(writeFilesAtomically(set('v1'), { overwrite }));
      expect(error.code).toBe('symlink');
      expect(error.message).toContain(path.join(dir, 'id'));
    }
    expect(await readFile(victim, 'utf8')).toBe('precious');
    expect((await lstat(path.join(dir, 'id'))).isSymbolicLink()).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['id', 'victim']);
  });

  it('refuses a folder at a target', async () => {
    await mkdir(path.join(dir, 'id-cert.pub'));
    expect((await sshError(writeFilesAtomically(set('v1'), { overwrite: true }))).code).toBe(
      'not-a-file',
    );
  });
});

describe('failures part-way', () => {
  const failAt = (index: number) => ({
    beforeCommit: (_: string, i: number) => {
      if (i === index) throw new Error('injected failure');
    },
  });

  it('a failure between write and rename leaves the old files whole', async () => {
    await writeFilesAtomically(set('v1'), { overwrite: false });
    await expect(
      writeFilesAtomically(set('v2'), { overwrite: true, hooks: failAt(0) }),
    ).rejects.toThrow(/injected failure/);
    expect(await contents()).toEqual(['private v1', 'public v1', 'cert v1']);
    expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
  });

  it('if the second of three fails, nothing new remains', async () => {
    await expect(
      writeFilesAtomically(set('v1'), { overwrite: false, hooks: failAt(1) }),
    ).rejects.toBeInstanceOf(SshError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('if the third of three fails while replacing, the first two get their old content back', async () => {
    await writeFilesAtomically(set('v1'), { overwrite: false });
    await expect(
      writeFilesAtomically(set('v2'), { overwrite: true, hooks: failAt(2) }),
    ).rejects.toBeInstanceOf(SshError);
    expect(await contents()).toEqual(['private v1', 'public v1', 'cert v1']);
    expect(await mode(path.join(dir, 'id'))).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
  });
});

describe('names', () => {
  it.each(['a/b', '../id', '..', '.', 'a\\b', 'x..y', '-oProxyCommand', 'id.pub', '', 'a\nb'])(
    'refuses %j as a key name',
    (name) => {
      expect(KeyFileName.safeParse(name).success).toBe(false);
    },
  );

  it.each(['id_ed25519', 'work key', 'prod.2026', '.hidden'])('takes %j', (name) => {
    expect(KeyFileName.safeParse(name).success).toBe(true);
  });

  it('refuses any path that leads outside the folder', () => {
    for (const name of ['../id', 'sub/id', '/etc/passwd', '..'])
      expect(() => pathIn(dir, name)).toThrow(SshError);
    expect(pathIn(dir, 'id')).toBe(path.join(dir, 'id'));
  });
});
