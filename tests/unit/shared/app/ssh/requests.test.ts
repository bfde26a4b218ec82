import { describe, expect, it } from 'vitest';
import {
  GenerateRequest,
  SigningOptions,
  Validity,
} from '../../../../../shared/app/ssh/requests.ts';

const CA = 'sshca_2kP9s8c7Yd1bVq3x';

/** The first issue's path and message, as the service words its SshError from them. */
function problem(
  schema: {
    safeParse(v: unknown): {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  value: unknown,
) {
  const parsed = schema.safeParse(value);
  expect(parsed.success).toBe(false);
  const issue = parsed.error?.issues[0];
  return `${issue?.path.join('.')}: ${issue?.message}`;
}

describe('SigningOptions', () => {
  it('fills in the spec defaults: a user certificate, no principals, permit-pty and permit-user-rc', () => {
    expect(SigningOptions.parse({ caId: CA })).toEqual({
      caId: CA,
      kind: 'user',
      principals: [],
      criticalOptions: {},
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
    });
  });

  it('refuses what sshd or ssh-keygen could not use, naming the field', () => {
    expect(problem(SigningOptions, { caId: 'ipp_1' })).toMatch(
      /^caId: must be an id starting with "sshca_"/,
    );
    expect(problem(SigningOptions, { caId: CA, principals: ['a b'] })).toBe(
      'principals.0: must not contain spaces or commas',
    );
    expect(problem(SigningOptions, { caId: CA, criticalOptions: { 'no-pty': '' } })).toMatch(
      /^criticalOptions: /,
    );
    expect(
      problem(SigningOptions, { caId: CA, criticalOptions: { 'source-address': 'anywhere' } }),
    ).toMatch(
      /^criticalOptions.source-address: must be a comma-separated list of addresses or CIDR blocks/,
    );
    expect(
      problem(SigningOptions, {
        caId: CA,
        kind: 'host',
        criticalOptions: { 'force-command': 'ls' },
      }),
    ).toBe('criticalOptions: apply to user certificates only');
  });
});

describe('Validity', () => {
  it('takes a preset, a length, or a window that ends after it starts', () => {
    expect(Validity.parse({ preset: '7d' })).toEqual({ preset: '7d' });
    expect(Validity.parse({ seconds: 600 })).toEqual({ seconds: 600 });
    const window = { validAfter: '2026-01-01T00:00:00Z', validUntil: '2026-01-02T00:00:00+01:00' };
    expect(Validity.parse(window)).toEqual(window);
    expect(Validity.safeParse({ ...window, validUntil: '2025-12-31T00:00:00Z' }).success).toBe(
      false,
    );
    expect(Validity.safeParse({ preset: '2w' }).success).toBe(false);
    expect(Validity.safeParse({ seconds: 1 }).success).toBe(false);
  });
});

describe('GenerateRequest', () => {
  it('defaults to an unencrypted ed25519 key, and offers no RSA under 3072 bits', () => {
    const parsed = GenerateRequest.parse({ target: { name: 'id' }, certificate: { caId: CA } });
    expect(parsed.key).toEqual({ type: 'ed25519' });
    expect(parsed.passphrase).toBe('');
    expect(parsed.target.overwrite).toBe(false);
    expect(
      GenerateRequest.parse({
        key: { type: 'rsa' },
        target: { name: 'id' },
        certificate: { caId: CA },
      }).key,
    ).toEqual({
      type: 'rsa',
      bits: 4096,
    });
    expect(
      problem(GenerateRequest, {
        key: { type: 'rsa', bits: 2048 },
        target: { name: 'id' },
        certificate: { caId: CA },
      }),
    ).toMatch(/^key.bits: /);
    expect(
      problem(GenerateRequest, {
        target: { name: 'id', folder: 'relative' },
        certificate: { caId: CA },
      }),
    ).toBe('target.folder: must be an absolute path');
  });
});
