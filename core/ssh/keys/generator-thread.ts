/** The key generation thread: generating and encrypting keys here keeps the main loop free. */
import { parentPort } from 'node:worker_threads';
import { runKeygenJob, type KeygenJob, type KeygenReply } from './key-pair.ts';

parentPort?.on('message', ({ id, job }: { id: number; job: KeygenJob }) => {
  let reply: KeygenReply;
  try {
    reply = { id, ok: true, key: runKeygenJob(job) };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
