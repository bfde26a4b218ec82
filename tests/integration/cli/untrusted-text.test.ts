import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startAccount, type Sandbox } from '../core/api/support.ts';
import { burrow, oneLine, tempDir } from './support.ts';
import { noResources, snapshotDocument } from '../../support/snapshot-documents.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

/** Any control character but the newlines that end lines. */
const TERMINAL = /[^\P{Cc}\n]/u;
const cleanup = cleanupAfterAll();
let sandbox: Sandbox;
let dir: string;

/** A snapshot of nothing but `extra`, written to a file of the test's folder. */
async function snapshotFile(name: string, extra: Record<string, unknown>): Promise<string> {
  const file = join(dir, name);
  const document = { ...snapshotDocument(), ...extra };
  await writeFile(file, JSON.stringify(document));
  return file;
}

const plan = (file: string) =>
  burrow(['plan', file, '--api-url', sandbox.url], { env: { BURROW_API_KEY: sandbox.apiKey } });

beforeAll(async () => {
  dir = await tempDir(cleanup);
  sandbox = (await startAccount('cli-untrusted', cleanup)).sandbox;
});

describe("a hostile snapshot's text reaches the terminal escaped", () => {
  it('an unknown key in the error line', async () => {
    const file = await snapshotFile('unknown-key.json', { 'x\x1b]0;owned\x07\r\x9b2J': 1 });
    const result = await plan(file);
    expect(result.code).toBe(1);
    oneLine(result, 'x\\x1b]0;owned\\x07\\x0d\\u009b2J');
    expect(result.stderr).not.toMatch(TERMINAL);
  });

  it("the plan's field names and values", async () => {
    const file = await snapshotFile('fields.json', {
      resources: {
        ...noResources(),
        ipPolicy: [
          {
            name: 'ipPolicy/office',
            id: 'ipp_1',
            fields: { description: 'a\x9b2J\x7fb', 'k\x1b[31m': 'v' },
          },
        ],
      },
    });
    const result = await plan(file);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).not.toMatch(TERMINAL);
    expect(result.stdout).toContain('description: "a\\u009b2J\\x7fb"');
    expect(result.stdout).toContain('k\\x1b[31m: "v"');
  });
});
