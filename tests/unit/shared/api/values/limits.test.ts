import { describe, expect, it } from 'vitest';
import { byteLimitedString, utf8ByteLength } from '../../../../../shared/api/values/bytes.ts';
import {
  Description,
  Metadata,
  Timestamp,
  UtcTimestamp,
} from '../../../../../shared/api/values/common.ts';
import { IPPolicyCreate } from '../../../../../shared/api/kinds/ip-policies.ts';
import { expectAccepted, expectRejected } from '../expect-validation.ts';

describe('utf8ByteLength', () => {
  it.each([
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4], // two UTF-16 code units, one code point, four bytes
  ] as const)('counts %s as %i bytes of UTF-8, not characters', (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
  });
});

describe('description (max 255 bytes)', () => {
  const cases: [string, string, boolean][] = [
    ['255 ASCII', 'a'.repeat(255), true],
    ['256 ASCII', 'a'.repeat(256), false],
    ['85 × € = 255 bytes', '€'.repeat(85), true],
    ['86 × € = 258 bytes', '€'.repeat(86), false],
    ['63 emoji + 3 ASCII = 255 bytes', '😀'.repeat(63) + 'abc', true],
    ['64 emoji = 256 bytes', '😀'.repeat(64), false],
    ['127 × é + 1 ASCII = 255 bytes', 'é'.repeat(127) + 'a', true],
    ['128 × é = 256 bytes', 'é'.repeat(128), false],
    ['empty', '', true],
  ];
  it.each(cases)('%s', (_, value, ok) => {
    expect(Description.safeParse(value).success).toBe(ok);
  });

  it('is counted in bytes even where characters are under the limit', () => {
    expect('€'.repeat(86).length).toBeLessThan(255);
    expect(Description.safeParse('€'.repeat(86)).success).toBe(false);
  });

  it('maps to ERR_SERVICE_420 in a body', () => {
    expect(
      expectRejected(
        IPPolicyCreate,
        { description: 'a'.repeat(256) },
        'descriptionTooLong',
        'description',
      ),
    ).toContain('255 bytes');
    expectRejected(
      IPPolicyCreate,
      { description: '😀'.repeat(64) },
      'descriptionTooLong',
      'description',
    );
    expectRejected(IPPolicyCreate, { description: 7 }, 'invalidValue', 'description');
  });
});

describe('metadata (max 4096 bytes)', () => {
  it.each([
    ['4096 ASCII', 'm'.repeat(4096), true],
    ['4097 ASCII', 'm'.repeat(4097), false],
    ['1024 emoji = 4096 bytes', '😀'.repeat(1024), true],
    ['1365 × € + 1 = 4096 bytes', '€'.repeat(1365) + 'a', true],
    ['1366 × € = 4098 bytes', '€'.repeat(1366), false],
  ] as const)('%s', (_, value, ok) => {
    expect(Metadata.safeParse(value).success).toBe(ok);
  });

  it('maps to ERR_SERVICE_421 in a body', () => {
    expectRejected(IPPolicyCreate, { metadata: 'm'.repeat(4097) }, 'metadataTooLong', 'metadata');
    expectAccepted(IPPolicyCreate, { description: 'a'.repeat(255), metadata: 'm'.repeat(4096) });
  });
});

describe('byteLimitedString', () => {
  it('carries the error it was built with', () => {
    const issue = byteLimitedString(2, 'metadataTooLong').safeParse('€').error?.issues[0];
    expect(issue).toMatchObject({ code: 'custom', params: { error: 'metadataTooLong' } });
  });
});

describe('timestamps', () => {
  it.each([
    ['2025-01-31T12:00:00Z', true, true],
    ['2025-01-31T12:00:00.123456Z', true, true],
    ['2025-01-31T12:00:00+02:00', true, false],
    ['2025-01-31T12:00:00-05:30', true, false],
    ['2025-01-31T12:00Z', false, false],
    ['2025-01-31 12:00:00Z', false, false],
    ['2025-02-30T12:00:00Z', false, false],
    ['2025-01-31', false, false],
    ['1738324800', false, false],
  ] as const)('%s: request %s, response (UTC) %s', (value, request, response) => {
    expect(Timestamp.safeParse(value).success).toBe(request);
    expect(UtcTimestamp.safeParse(value).success).toBe(response);
  });
});
