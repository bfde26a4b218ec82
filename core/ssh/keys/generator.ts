/**
 * Key generation off the main thread. One worker serves every request in turn and is kept for
 * the next one (starting a thread costs more than generating an ed25519 key); it does not keep
 * the process alive, and a worker that dies is replaced on the next request.
 */
import type { Worker } from 'node:worker_threads';
import { SshError } from '../errors.ts';
import { startWorker } from '../../threads.ts';
import type { GeneratedKeyPair, KeyPairRequest, GeneratorReply } from './key-pair.ts';

type Pending = { resolve(key: GeneratedKeyPair): void; reject(error: Error): void };

export type KeyGenerator = {
  generate(job: KeyPairRequest): Promise<GeneratedKeyPair>;
  close(): Promise<void>;
};

export function createKeyGenerator(): KeyGenerator {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const failAll = (message: string) => {
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(new SshError('key-generation-failed', `The key could not be generated: ${message}`));
    }
  };

  function running(): Worker {
    if (worker) return worker;
    const w = startWorker('generator-thread', import.meta.url);
    w.unref();
    w.on('message', (reply: GeneratorReply) => {
      const p = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) w.unref();
      if (reply.ok) p?.resolve(reply.key);
      else
        p?.reject(
          new SshError('key-generation-failed', `The key could not be generated: ${reply.message}`),
        );
    });
    w.on('error', (error) => failAll(error.message));
    w.on('exit', () => {
      if (worker === w) worker = undefined;
      failAll('the key generation thread stopped');
    });
    worker = w;
    return w;
  }

  return {
    generate(job) {
      return new Promise((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, { resolve, reject });
        const w = running();
        // While a key is on its way, the thread keeps the process alive to deliver it.
        w.ref();
        w.postMessage({ id, job });
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}
