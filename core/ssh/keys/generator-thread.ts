/** The key generation thread: generating and encrypting keys here keeps the main loop free. */
import { parentPort } from 'node:worker_threads';
import { makeKeyPair, type KeyPairRequest, type GeneratorReply } from './key-pair.ts';

parentPort?.on('message', ({ id, job }: { id: number; job: KeyPairRequest }) => {
  let reply: GeneratorReply;
  try {
    reply = { id, ok: true, key: makeKeyPair(job) };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
