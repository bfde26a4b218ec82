import { expect, it } from 'vitest';
import { SandboxRecord } from '../../../../core/profiles/local-sandbox-record.ts';

const secret = 'c'.repeat(64);

it('a record names a loopback http address, a process and its proof, or it is not one', () => {
  for (const url of ['http://127.0.0.1:41234', 'http://[::1]:41234', 'http://localhost:41234'])
    expect(SandboxRecord.safeParse({ url, pid: 42, secret }).success, url).toBe(true);
  // Anywhere else the key would be sent away from this machine, or to something else.
  for (const url of [
    'http://example.com:41234',
    'http://10.0.0.1:41234',
    'https://127.0.0.1:41234',
    'http://127.0.0.1.example.com/',
    'file:///etc/passwd',
    'not a url',
  ]) {
    const parsed = SandboxRecord.safeParse({ url, pid: 42, secret });
    expect(parsed.success, url).toBe(false);
    expect(parsed.error?.issues[0]?.path, url).toEqual(['url']);
  }
  for (const pid of [0, -1, 1.5, '42', null])
    expect(
      SandboxRecord.safeParse({ url: 'http://127.0.0.1:1', pid, secret }).success,
      String(pid),
    ).toBe(false);
  // Without the secret of its start, nothing proves the sandbox there is the one recorded.
  for (const without of [undefined, '', 'c'.repeat(63), 'C'.repeat(64)])
    expect(
      SandboxRecord.safeParse({ url: 'http://127.0.0.1:1', pid: 42, secret: without }).success,
      String(without),
    ).toBe(false);
});
