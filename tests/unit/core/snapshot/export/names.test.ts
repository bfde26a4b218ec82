import { describe, expect, it } from 'vitest';
import { nameResources, slug } from '../../../../../core/snapshot/export/names.ts';

const candidate = (id: string, label: unknown[], content = '{}', prefix?: string) => ({
  id,
  label,
  content,
  ...(prefix !== undefined && { prefix }),
});

describe('local names', () => {
  it('are the kind and a slug of the first non-empty word, "unnamed" without one', () => {
    expect(slug('  Office — Paris / 2nd floor ')).toBe('office-paris-2nd-floor');
    const names = nameResources('tlsEdge', [
      candidate('a', ['', 'tls.example.com:443']),
      candidate('b', [undefined, undefined]),
    ]);
    expect([...names]).toEqual([
      ['a', 'tlsEdge/tls.example.com-443'],
      ['b', 'tlsEdge/unnamed'],
    ]);
  });

  it('order look-alikes by content, not id, and step over a name already taken', () => {
    const names = nameResources('ipPolicy', [
      candidate('ipp_z', ['office'], '{"m":1}'),
      candidate('ipp_a', ['office'], '{"m":2}'),
      candidate('ipp_m', ['office 2']),
      candidate('ipp_b', ['office'], '{"m":3}'),
    ]);
    expect(Object.fromEntries(names)).toEqual({
      ipp_z: 'ipPolicy/office',
      ipp_a: 'ipPolicy/office-3',
      ipp_b: 'ipPolicy/office-4',
      ipp_m: 'ipPolicy/office-2',
    });
  });

  it('put a route under its edge', () => {
    const names = nameResources('httpsEdgeRoute', [
      candidate('r', [undefined, '/api/v1'], '{}', 'httpsEdge/www'),
    ]);
    expect(names.get('r')).toBe('httpsEdgeRoute/www/api-v1');
  });
});
