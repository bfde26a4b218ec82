import { describe, expect, it } from 'vitest';
import {
  isAllowedNavigation,
  isExternalLink,
  isGrantedPermission,
  isTrustedSender,
} from '../../../../core/ipc/sender.ts';

const page = 'app://burrow/index.html';

describe('isTrustedSender', () => {
  it('trusts the app page in its main frame', () => {
    expect(isTrustedSender(page, true)).toBe(true);
  });

  it.each([
    [page, false],
    ['https://example.com/', true],
    ['file:///etc/passwd', true],
    ['app://evil/index.html', true],
    ['app://burrow.evil.com/index.html', true],
    ['not a url', true],
    ['', true],
    [undefined, true],
  ] as const)('refuses %j (main frame: %s)', (url, mainFrame) => {
    expect(isTrustedSender(url, mainFrame)).toBe(false);
  });
});

describe('isGrantedPermission', () => {
  it("grants the app page's main frame its clipboard writes, which its Copy buttons need", () => {
    expect(isGrantedPermission('clipboard-sanitized-write', page, true)).toBe(true);
    expect(isGrantedPermission('clipboard-sanitized-write', `${page}#/credentials`, true)).toBe(
      true,
    );
  });

  it.each([
    ['clipboard-sanitized-write', page, false],
    ['clipboard-sanitized-write', 'https://example.com/', true],
    ['clipboard-sanitized-write', 'app://evil/index.html', true],
    ['clipboard-sanitized-write', undefined, true],
    ['clipboard-read', page, true],
    ['notifications', page, true],
    ['media', page, true],
    ['openExternal', page, true],
    ['unknown', page, true],
  ] as const)('refuses %s to %j (main frame: %s)', (permission, url, mainFrame) => {
    expect(isGrantedPermission(permission, url, mainFrame)).toBe(false);
  });
});

describe('isAllowedNavigation', () => {
  it('allows only a hash change on the same page', () => {
    expect(isAllowedNavigation(`${page}#/edges`, page)).toBe(true);
  });

  it.each([
    'https://example.com/',
    'app://burrow/other.html',
    'app://evil/index.html',
    'javascript:alert(1)',
    '::',
  ])('refuses %s', (target) => {
    expect(isAllowedNavigation(target, page)).toBe(false);
  });
});

describe('isExternalLink', () => {
  it('hands only https links to the browser', () => {
    expect(isExternalLink('https://docs.example.com/agents')).toBe(true);
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'smb://host/share',
      'not a url',
    ])
      expect(isExternalLink(url)).toBe(false);
  });
});
