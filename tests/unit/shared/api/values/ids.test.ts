import { describe, expect, it } from 'vitest';
import {
  ID_PREFIXES,
  idKindOf,
  idSchema,
  isIdOf,
  type IdKind,
} from '../../../../../shared/api/values/ids.ts';

const KINDS = Object.keys(ID_PREFIXES) as IdKind[];

describe('ID_PREFIXES', () => {
  it("holds every prefix of the spec, the three the sandbox adds and the gap note's ipr_", () => {
    expect(Object.values(ID_PREFIXES).sort()).toEqual(
      [
        'ipp_',
        'sucrt_',
        'shcrt_',
        'sshca_',
        'sshcr_',
        'cr_',
        'agin_',
        'bkdfo_',
        'bkdhr_',
        'bkdtg_',
        'edgtls_',
        'edghts_',
        'edghtsrt_',
        'ts_',
        'abrp_',
        'usr_',
        'bot_',
        'ca_',
        'op_',
        'ipr_',
      ].sort(),
    );
  });
});

describe.each(KINDS)('%s ids', (kind) => {
  const prefix = ID_PREFIXES[kind];
  const other = KINDS.find(
    (k) => k !== kind && !ID_PREFIXES[k].startsWith(prefix) && !prefix.startsWith(ID_PREFIXES[k]),
  )!;

  it('accepts the prefix followed by 1 to 64 letters and digits', () => {
    for (const id of [`${prefix}a`, `${prefix}2CDc3kLmN0`, `${prefix}${'Z9'.repeat(32)}`]) {
      expect(idKindOf(id)).toBe(kind);
      expect(isIdOf(kind, id)).toBe(true);
      expect(idSchema(kind).safeParse(id).success).toBe(true);
    }
  });

  it('refuses an empty suffix, a suffix over 64, odd characters, and case changes of the prefix', () => {
    for (const id of [
      prefix,
      `${prefix}${'a'.repeat(65)}`,
      `${prefix}a-b`,
      `${prefix}a_b`,
      `${prefix}a b`,
      `${prefix}é`,
      prefix.toUpperCase() + 'abc',
      `x${prefix}abc`,
    ]) {
      expect(isIdOf(kind, id)).toBe(false);
      expect(idSchema(kind).safeParse(id).success).toBe(false);
    }
  });

  it('refuses an id of another kind, as an invalid reference', () => {
    const id = `${ID_PREFIXES[other]}abc`;
    expect(isIdOf(kind, id)).toBe(false);
    expect(idSchema(kind).safeParse(id).error?.issues[0]).toMatchObject({
      params: { error: 'invalidReference' },
    });
  });
});

describe('prefixes that begin one another', () => {
  it('tells HTTPS edges (edghts_) from their routes (edghtsrt_)', () => {
    expect(idKindOf('edghts_abc')).toBe('httpsEdge');
    expect(idKindOf('edghtsrt_abc')).toBe('httpsEdgeRoute');
    expect(isIdOf('httpsEdge', 'edghtsrt_abc')).toBe(false);
    expect(isIdOf('httpsEdgeRoute', 'edghts_abc')).toBe(false);
    // "rt" after edghts_ would only be suffix text if the underscore were allowed, and it is not.
    expect(idKindOf('edghts_rt_abc')).toBeUndefined();
    expect(idKindOf('edghts_rtabc')).toBe('httpsEdge');
  });

  // The credential kinds apart (cr_, sshcr_), and certificates from CAs (ca_, sshca_).
  it.each([
    ['sshcr_1', 'sshCredential'],
    ['cr_1', 'credential'],
    ['sshca_1', 'sshCertificateAuthority'],
    ['ca_1', 'certificateAuthority'],
  ])('tells %s as %s', (id, kind) => {
    expect(idKindOf(id)).toBe(kind);
  });
});

describe('idSchema with several kinds', () => {
  const owner = idSchema('user', 'bot');

  it('accepts any of them', () => {
    expect(owner.safeParse('usr_1').success).toBe(true);
    expect(owner.safeParse('bot_1').success).toBe(true);
  });

  it('names every allowed prefix when refusing', () => {
    expect(owner.safeParse('nope').error?.issues[0]?.message).toBe(
      'must be an id starting with "usr_" or "bot_"',
    );
    expect(owner.safeParse('ipp_1').error?.issues[0]?.message).toBe(
      'must be an id starting with "usr_" or "bot_", not "ipp_"',
    );
  });

  it('refuses non-strings and unknown prefixes as plain invalid values', () => {
    expect(owner.safeParse(1).success).toBe(false);
    const issue = owner.safeParse('zzz_1').error?.issues[0];
    expect(issue?.code).toBe('custom');
    expect(issue && 'params' in issue ? issue.params : undefined).toBeUndefined();
  });

  it('documents its pattern for JSON Schema', () => {
    expect(owner.meta()).toMatchObject({ pattern: '^(?:usr_|bot_)[A-Za-z0-9]{1,64}$' });
  });

  it('isIdOf takes a list of kinds and refuses non-strings', () => {
    expect(isIdOf(['user', 'bot'], 'bot_x')).toBe(true);
    expect(isIdOf(['user', 'bot'], 'ipp_x')).toBe(false);
    expect(isIdOf('user', 42)).toBe(false);
  });
});
