import { describe, expect, it } from 'vitest';
import { ERRORS, isErrorName } from '../../../../../shared/api/errors/errors.ts';
import {
  SERVICE_VERSION,
  SERVICE_VERSION_HEADER,
  SUPPORTED_VERSIONS,
} from '../../../../../shared/api/catalog/version.ts';

// code number → HTTP status, as the real service (2xx, 4xx numbers) and we (3xx numbers) use them.
const EXPECTED: Record<number, number> = {
  200: 401,
  201: 401,
  203: 401,
  206: 401,
  210: 415,
  213: 400,
  214: 400,
  215: 400,
  216: 400,
  217: 400,
  218: 400,
  222: 404,
  223: 400,
  226: 429,
  231: 400,
  233: 400,
  420: 400,
  421: 400,
  300: 400,
  301: 404,
  302: 404,
  303: 405,
  304: 403,
  305: 403,
  306: 409,
  307: 404,
  308: 409,
  309: 400,
  310: 400,
  311: 400,
  312: 400,
  313: 400,
  314: 400,
  315: 400,
  317: 400,
  318: 400,
  319: 400,
  320: 400,
  321: 400,
  322: 413,
  323: 400,
  324: 400,
  330: 400,
  331: 400,
  332: 409,
  333: 409,
  334: 409,
  335: 409,
  336: 504,
  340: 500,
  341: 503,
};

describe('ERRORS', () => {
  const entries = Object.values(ERRORS);

  it('holds exactly the agreed codes with their statuses', () => {
    const actual = Object.fromEntries(
      entries.map((e) => [Number(e.code.replace('ERR_SERVICE_', '')), e.status]),
    );
    expect(actual).toEqual(EXPECTED);
  });

  it('gives every condition its own code, in the ERR_SERVICE_<n> form, with a description', () => {
    expect(new Set(entries.map((e) => e.code)).size).toBe(entries.length);
    for (const e of entries) {
      expect(e.code).toMatch(/^ERR_SERVICE_\d+$/);
      expect(e.condition.length).toBeGreaterThan(0);
    }
  });

  it('names the codes the spec documents', () => {
    expect(ERRORS.missingVersion).toMatchObject({ code: 'ERR_SERVICE_218', status: 400 });
    expect(ERRORS.rateLimited).toMatchObject({ code: 'ERR_SERVICE_226', status: 429 });
    expect(ERRORS.descriptionTooLong.code).toBe('ERR_SERVICE_420');
    expect(ERRORS.metadataTooLong.code).toBe('ERR_SERVICE_421');
  });

  it('isErrorName recognises the table keys only', () => {
    expect(isErrorName('notFound')).toBe(true);
    expect(isErrorName('toString')).toBe(false);
    expect(isErrorName(301)).toBe(false);
  });
});

describe('version', () => {
  it('is version 2 in the Service-Version header', () => {
    expect(SERVICE_VERSION_HEADER).toBe('Service-Version');
    expect(SERVICE_VERSION).toBe('2');
    expect(SUPPORTED_VERSIONS).toEqual(['2']);
  });
});
