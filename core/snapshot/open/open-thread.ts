/**
 * The snapshot opening thread: parses and checks one file's text (workerData) here, then hands
 * the document over a slice at a time, each when the main thread asks for it, so that taking it
 * in never holds the main loop for long either.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SNAPSHOT_KINDS } from '../../../shared/app/snapshot-document.ts';
import { AppError } from '../../errors.ts';
import { openSnapshot } from './open.ts';
import type { OpenJob, OpenReply } from './open-worker.ts';

/** Entries per message: a few milliseconds of the main thread's time to take in. */
const SLICE = 2_000;

const { fileName, text } = workerData as OpenJob;

function* replies(): Generator<OpenReply> {
  let document;
  try {
    document = openSnapshot(fileName, text);
  } catch (error) {
    const refusal =
      error instanceof AppError ? error : new AppError('SNAPSHOT_INVALID', String(error));
    yield { kind: 'refused', code: refusal.code, message: refusal.message, field: refusal.field };
    return;
  }
  const { resources, ...head } = document;
  yield { kind: 'head', head };
  for (const resource of SNAPSHOT_KINDS)
    for (let i = 0; i < resources[resource].length; i += SLICE)
      yield { kind: 'entries', resource, entries: resources[resource].slice(i, i + SLICE) };
  yield { kind: 'done' };
}

const pending = replies();
parentPort?.on('message', () => {
  const next = pending.next();
  if (!next.done) parentPort?.postMessage(next.value);
});
