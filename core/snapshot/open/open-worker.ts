/**
 * Opening a large snapshot off the main thread: a 12.5 MB file of 90,000 edges and routes takes
 * about a second to parse and check, which in the main process would freeze every window and
 * the monitor's timers. A thread starts for the one file and ends with it; small files, the
 * usual ones, are opened in place, where a thread would cost more than the work.
 */
import type { Worker } from 'node:worker_threads';
import {
  SNAPSHOT_KINDS,
  type SnapshotDocument,
  type SnapshotEntry,
  type SnapshotKind,
} from '../../../shared/app/snapshot-document.ts';
import { AppError } from '../../errors.ts';
import { startWorker } from '../../threads.ts';
import { openSnapshot } from './open.ts';

/** Texts shorter than this (in UTF-16 units) are opened on the calling thread. */
const IN_PLACE_BELOW = 256 * 1024;

export type OpenJob = { readonly fileName: string; readonly text: string };

export type OpenReply =
  | { kind: 'refused'; code: string; message: string; field: string | undefined }
  | { kind: 'head'; head: Omit<SnapshotDocument, 'resources'> }
  | { kind: 'entries'; resource: SnapshotKind; entries: SnapshotEntry[] }
  | { kind: 'done' };

/**
 * What `openSnapshot` returns or throws for the same text (the same document, the same
 * one-line refusal), without holding the main loop for the file's parsing and checks.
 */
export async function openSnapshotOffThread(
  fileName: string,
  text: string,
  inPlaceBelow = IN_PLACE_BELOW,
): Promise<SnapshotDocument> {
  if (text.length < inPlaceBelow) return openSnapshot(fileName, text);
  const worker = startWorker('open-thread', import.meta.url, { fileName, text });
  try {
    return await received(worker, fileName);
  } finally {
    await worker.terminate();
  }
}

function received(worker: Worker, fileName: string): Promise<SnapshotDocument> {
  const resources = Object.fromEntries(SNAPSHOT_KINDS.map((kind) => [kind, []])) as unknown as {
    [K in SnapshotKind]: SnapshotEntry[];
  };
  let head: Omit<SnapshotDocument, 'resources'> | undefined;
  return new Promise((resolve, reject) => {
    const failed = (reason: string) =>
      reject(new AppError('SNAPSHOT_UNREADABLE', `${fileName} could not be opened: ${reason}`));
    worker.on('message', (reply: OpenReply) => {
      if (reply.kind === 'refused') reject(new AppError(reply.code, reply.message, reply.field));
      else if (reply.kind === 'done' && head !== undefined) resolve({ ...head, resources });
      else {
        if (reply.kind === 'head') head = reply.head;
        else if (reply.kind === 'entries') resources[reply.resource].push(...reply.entries);
        worker.postMessage('next');
      }
    });
    worker.on('error', (error) => failed(error.message));
    worker.on('exit', () => failed('the opening thread stopped'));
    worker.postMessage('next');
  });
}
