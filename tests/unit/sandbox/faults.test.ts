import { describe, expect, it } from 'vitest';
import { Faults } from '../../../sandbox/faults/faults.ts';

describe('Faults', () => {
  it('adds latencies and answers with the first other matching rule', () => {
    const faults = new Faults();
    faults.add({ kind: 'latency', latencyMs: 10 });
    faults.add({ kind: 'latency', latencyMs: 5, method: 'post' });
    faults.add({ kind: 'status', status: 500, pathPrefix: '/edges', count: 1 });
    faults.add({ kind: 'drop', pathPrefix: '/edges' });
    expect(faults.take('GET', '/ip_policies')).toEqual({ delayMs: 10, answer: undefined });
    expect(faults.take('POST', '/edges/tls')).toMatchObject({
      delayMs: 15,
      answer: { kind: 'status' },
    });
    expect(faults.take('POST', '/edges/tls')).toMatchObject({ answer: { kind: 'drop' } });
    expect(faults.list().map((r) => r.kind)).toEqual(['latency', 'latency', 'drop']);
  });

  it('applies a rule with its probability', () => {
    const draws = [0.2, 0.7];
    const faults = new Faults(() => draws.shift() ?? 0);
    faults.add({ kind: 'rateLimit', probability: 0.5 });
    expect(faults.take('GET', '/').answer?.kind).toBe('rateLimit');
    expect(faults.take('GET', '/').answer).toBeUndefined();
  });

  it('shows what is left of a counted rule', () => {
    const faults = new Faults();
    faults.add({ kind: 'status', count: 3 });
    faults.take('GET', '/');
    expect(faults.list()).toEqual([{ kind: 'status', count: 2 }]);
  });
});
