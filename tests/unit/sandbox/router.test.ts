import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/api/catalog/endpoints.ts';
import { createRouter } from '../../../sandbox/http/router.ts';

const route = createRouter(ENDPOINTS);

describe('router', () => {
  it('finds every catalog endpoint', () => {
    for (const e of ENDPOINTS) {
      const path = e.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}_1`);
      const match = route(e.method, path);
      expect(match.kind === 'found' && match.endpoint.name).toBe(e.name);
    }
  });

  it('prefers literal segments and names parameters per endpoint', () => {
    const routes = route('POST', '/edges/https/e1/routes');
    expect(routes).toMatchObject({ kind: 'found', params: { edge_id: 'e1' } });
    const module = route('GET', '/edges/https/e1/routes/r1/oauth');
    expect(module).toMatchObject({ kind: 'found', params: { edge_id: 'e1', id: 'r1' } });
    expect(route('GET', '/edges/https/e1')).toMatchObject({ kind: 'found', params: { id: 'e1' } });
  });

  it('tells unknown paths from disallowed methods', () => {
    expect(route('GET', '/nope')).toEqual({ kind: 'unknownPath' });
    expect(route('GET', '/edges')).toEqual({ kind: 'unknownPath' });
    expect(route('GET', '/ip_policies/')).toEqual({ kind: 'unknownPath' });
    expect(route('GET', '/ip_policies/%zz')).toEqual({ kind: 'unknownPath' });
    expect(route('DELETE', '/ip_policies')).toEqual({
      kind: 'methodNotAllowed',
      allow: ['POST', 'GET'],
    });
    expect(route('POST', '/tunnel_sessions/ts_1')).toEqual({
      kind: 'methodNotAllowed',
      allow: ['GET'],
    });
  });
});
