import { describe, expect, it } from 'vitest';
import { changesConfiguration, ownChanges } from '../../../../core/drift/own-changes.ts';

describe('changesConfiguration', () => {
  it('is a write to a kind a snapshot holds, or to its modules', () => {
    expect(changesConfiguration({ name: 'ipPolicies.create', method: 'POST' })).toBe(true);
    expect(changesConfiguration({ name: 'tlsEdges.backend.replace', method: 'PUT' })).toBe(true);
    expect(changesConfiguration({ name: 'httpsEdgeRoutes.delete', method: 'DELETE' })).toBe(true);
  });

  it('is not a read, nor a write to what a snapshot does not hold', () => {
    expect(changesConfiguration({ name: 'ipPolicies.list', method: 'GET' })).toBe(false);
    expect(changesConfiguration({ name: 'tunnelSessions.restart', method: 'POST' })).toBe(false);
    expect(changesConfiguration({ name: 'abuseReports.create', method: 'POST' })).toBe(false);
  });
});

describe('ownChanges', () => {
  /** A keep that ends when the test says, counting the reads it was asked for. */
  function keeps() {
    const reads: { profileId: string; end: () => void }[] = [];
    const keep = (profileId: string) =>
      new Promise<void>((resolve) => reads.push({ profileId, end: resolve }));
    return { reads, changed: ownChanges(keep) };
  }

  it('reads once for an edit, and once more for every edit made while it read', async () => {
    const { reads, changed } = keeps();
    const first = changed('prf_a');
    const during = [changed('prf_a'), changed('prf_a'), changed('prf_a')];
    expect(reads).toHaveLength(1);
    reads[0]?.end();
    await first;
    await Promise.resolve();
    expect(reads).toHaveLength(2);
    let settled = false;
    void Promise.all(during).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    reads[1]?.end();
    await Promise.all(during);
    expect(reads).toHaveLength(2);
  });

  it('keeps each profile apart, and goes on after a read that failed', async () => {
    const failing = ownChanges(async (profileId) => {
      if (profileId === 'prf_gone') throw new Error('key refused');
    });
    await expect(failing('prf_gone')).resolves.toBeUndefined();
    const { reads, changed } = keeps();
    void changed('prf_a');
    void changed('prf_b');
    expect(reads.map((r) => r.profileId)).toEqual(['prf_a', 'prf_b']);
  });
});
