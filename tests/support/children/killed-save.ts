/**
 * A save killed part-way, for real: runs writeFilesAtomically and SIGKILLs itself just before it
 * puts file number `at` in place, leaving on disk exactly what such a crash leaves.
 * `node dist-test/killed-save.js '{"files":[…],"overwrite":false,"at":1}'` (built by
 * scripts/build-test.ts; tests/integration/core/ssh/killed-save.ts starts it).
 */
import { writeFilesAtomically, type FileToWrite } from '../../../core/ssh/files/atomic-write.ts';

const { files, overwrite, at } = JSON.parse(process.argv[2] ?? '{}') as {
  files: FileToWrite[];
  overwrite: boolean;
  at: number;
};
await writeFilesAtomically(files, {
  overwrite,
  hooks: {
    beforeCommit: (_, i) => {
      if (i === at) process.kill(process.pid, 'SIGKILL');
    },
  },
});
