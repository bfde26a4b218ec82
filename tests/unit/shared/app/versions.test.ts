import { describe, expect, it } from 'vitest';
import { compareVersions, readVersion } from '../../../../shared/app/versions.ts';

describe('compareVersions', () => {
  it('orders numerically, part by part, a release after its pre-releases', () => {
    expect(compareVersions('3.10.0', '3.9.9')).toBe(1);
    expect(compareVersions('3.2.1', '3.2.1')).toBe(0);
    expect(compareVersions('1.4.9', '1.5.0')).toBe(-1);
    expect(compareVersions('1.5.0-beta.10', '1.5.0-beta.2')).toBe(1);
    expect(compareVersions('1.5.0-beta.2', '1.5.0')).toBe(-1);
    expect(compareVersions('v2.0.0', '2.0.0+build.7')).toBe(0);
  });

  it('puts an agent on a pre-release below its release, never beside it', () => {
    expect(compareVersions('3.3.0-rc.1', '3.3.0')).toBe(-1);
    expect(compareVersions('3.3.0-rc.1', '3.2.0')).toBe(1);
  });

  it('sorts a text that is no version below every version, and never throws', () => {
    expect(readVersion('OpenSSH_9.3')).toBeUndefined();
    expect(compareVersions('OpenSSH_9.3', '0.0.1')).toBe(-1);
    expect(compareVersions('3.2.1', 'latest')).toBe(1);
    expect(compareVersions('3.x', '3.y')).toBe(0);
  });
});
