/**
 * Time to sign an SSH user certificate through the API (POST /ssh_user_certificates, one
 * request at a time, round trip included), for an ed25519 and an RSA-4096 CA, next to
 * `ssh-keygen -s` signing the same key with a CA of the same type — the tool people would
 * otherwise use. The baseline is per signature wall time including ssh-keygen's process start,
 * which dominates for ed25519; the raw node:crypto signature is printed too, to show how much of
 * the API's time is the signature itself.
 */
import { execFile } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { startSandbox } from '../sandbox/index.ts';
import { generateSshKey } from '../sandbox/ssh/keys.ts';
import { timeEach } from './timing.ts';

const run = promisify(execFile);
const API_SAMPLES = 40;
const KEYGEN_SAMPLES = 15;

type CaType = {
  label: string;
  api: object;
  keygen: string[];
  spec: Parameters<typeof generateSshKey>[0];
};

const CA_TYPES: readonly CaType[] = [
  { label: 'ed25519', api: {}, keygen: ['-t', 'ed25519'], spec: { type: 'ed25519' } },
  {
    label: 'RSA-4096',
    api: { private_key_type: 'rsa', key_size: 4096 },
    keygen: ['-t', 'rsa', '-b', '4096'],
    spec: { type: 'rsa', bits: 4096 },
  },
];

export async function benchSshSigning(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-bench-ssh-'));
  const sandbox = await startSandbox({ apiKey: 'bench-ssh-key', rateLimit: 'off' });
  const pool = new Pool(sandbox.url, { connections: 1 });
  const headers = {
    authorization: 'Bearer bench-ssh-key',
    'service-version': '2',
    'content-type': 'application/json',
  };
  const post = async (p: string, body: object) => {
    const { statusCode, body: reply } = await pool.request({
      method: 'POST',
      path: p,
      headers,
      body: JSON.stringify(body),
    });
    const json = (await reply.json()) as { id: string };
    if (statusCode !== 201) throw new Error(`${p}: ${statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    // The key every certificate is for, in both measurements.
    const subject = path.join(dir, 'subject');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'subject', '-f', subject]);
    const publicKey = (await readFile(`${subject}.pub`, 'utf8')).trim();

    console.log(
      'SSH user certificate signing, median per certificate ' +
        '(ssh-keygen: wall time per signature, process start included):',
    );
    for (const type of CA_TYPES) {
      const caFile = path.join(dir, `ca-${type.label}`);
      const [ca] = await Promise.all([
        post('/ssh_certificate_authorities', type.api),
        run('ssh-keygen', ['-q', ...type.keygen, '-N', '', '-C', 'ca', '-f', caFile]),
      ]);
      const body = {
        ssh_certificate_authority_id: ca.id,
        public_key: publicKey,
        principals: ['bench'],
      };
      const apiMs = await timeEach(API_SAMPLES, () => post('/ssh_user_certificates', body));
      let serial = 0;
      const keygenMs = await timeEach(KEYGEN_SAMPLES, () =>
        run('ssh-keygen', [
          '-q',
          '-s',
          caFile,
          '-I',
          `bench-${++serial}`,
          '-n',
          'bench',
          '-V',
          '+1d',
          `${subject}.pub`,
        ]),
      );
      // What the signature alone costs in this process, on the same size of data.
      const key = createPrivateKey((await generateSshKey(type.spec, 'raw')).privateKeyPem);
      const data = Buffer.alloc(400, 1);
      const rawMs = await timeEach(API_SAMPLES, async () =>
        type.spec.type === 'rsa' ? sign('sha512', data, key) : sign(null, data, key),
      );
      console.log(
        `sandbox sign ${type.label}: ${apiMs.toFixed(2)} ms via the API ` +
          `(${(apiMs / keygenMs).toFixed(2)}× of ssh-keygen -s at ${keygenMs.toFixed(2)} ms; ` +
          `the node:crypto signature alone: ${rawMs.toFixed(2)} ms)`,
      );
    }
  } finally {
    await pool.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}
