import { describe, expect, it } from 'vitest';
import {
  isAllowedNavigation,
  isExternalLink,
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
