import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { OWNER_PROOF_PATH, ownerProof } from '../../../shared/api/catalog/owner-proof.ts';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';

/* The owner challenge (shared/api/catalog/owner-proof.ts), answered only by a sandbox given a secret. */

const opened: Sandbox[] = [];
afterAll(async () => {
  for (const sandbox of opened) await sandbox.close();
});

const hex = () => randomBytes(32).toString('hex');

it('answers a challenge with its proof, with no key; refuses a malformed challenge', async () => {
  const secret = hex();
  const sandbox = await startSandbox({ apiKey: 'owner-key', ownerSecret: secret });
  opened.push(sandbox);
  const challenge = hex();
  const answer = await fetch(`${sandbox.url}${OWNER_PROOF_PATH}?challenge=${challenge}`);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ proof: await ownerProof(secret, challenge) });

  for (const bad of ['', '?challenge=abc', `?challenge=${challenge.toUpperCase()}`]) {
    const refused = await fetch(`${sandbox.url}${OWNER_PROOF_PATH}${bad}`);
    expect(refused.status, bad).toBe(400);
    expect(await refused.json(), bad).toMatchObject({
      error_code: 'ERR_SERVICE_215',
      details: { field: 'challenge' },
    });
  }
});

it('has no such route without a secret, and refuses a secret that is not 64 hex digits', async () => {
  const sandbox = await startSandbox({ apiKey: 'owner-key' });
  opened.push(sandbox);
  const answer = await fetch(`${sandbox.url}${OWNER_PROOF_PATH}?challenge=${hex()}`);
  expect(answer.status).not.toBe(200);
  await expect(startSandbox({ apiKey: 'owner-key', ownerSecret: 'short' })).rejects.toThrow(
    'ownerSecret must be 64 lowercase hex digits',
  );
});
