import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from './index.ts';

/**
 * The app's "Local sandbox": on a free loopback port, its data file in the app's data folder
 * (so it survives restarts), the demo resources seeded once, and live demo agents, so that the
 * first window already shows online sessions.
 */
export async function startEmbeddedSandbox(options: {
  readonly dataDir: string;
  readonly apiKey: string;
  /** Its proof of being the sandbox its record names (shared/api/catalog/owner-proof.ts). */
  readonly ownerSecret?: string;
  /** The service's own limit unless told otherwise (`npm run web -- --sandbox-rate-limit off`). */
  readonly rateLimit?: SandboxOptions['rateLimit'];
}): Promise<Sandbox> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  return startSandbox({
    apiKey: options.apiKey,
    dataFile: path.join(options.dataDir, 'sandbox.json'),
    demo: true,
    ...(options.ownerSecret !== undefined && { ownerSecret: options.ownerSecret }),
    ...(options.rateLimit !== undefined && { rateLimit: options.rateLimit }),
  });
}
