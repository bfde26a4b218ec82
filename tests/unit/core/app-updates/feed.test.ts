import { describe, expect, it } from 'vitest';
import { channelFile, feedUrlOf, parseRelease } from '../../../../core/app-updates/feed.ts';
import { isNewer, parseVersion } from '../../../../core/app-updates/versions.ts';
import { compareVersions } from '../../../../shared/app/versions.ts';

const SHA = `${'A'.repeat(86)}==`;
const FEED = 'https://updates.example/burrow/latest-linux.yml';

const yml = (lines: string[]) => lines.join('\n');

describe('versions', () => {
  it('offers only a strictly newer version, pre-releases before their release', () => {
    expect(isNewer('1.5.0', '1.4.9')).toBe(true);
    expect(isNewer('1.10.0', '1.9.0')).toBe(true);
    expect(isNewer('1.5.0', '1.5.0')).toBe(false);
    expect(isNewer('1.4.0', '1.5.0')).toBe(false);
    expect(isNewer('1.5.0-beta.2', '1.5.0')).toBe(false);
    expect(compareVersions('1.5.0-beta.10', '1.5.0-beta.2')).toBe(1);
    expect(compareVersions('v2.0.0', '2.0.0')).toBe(0);
    expect(isNewer('latest', '1.0.0')).toBe(false);
    expect(() => parseVersion('latest')).toThrow('version must be a version like 1.4.0');
  });
});

describe('a feed file', () => {
  it('names the file for this platform as electron-builder publishes it', () => {
    expect(channelFile('linux', 'x64')).toBe('latest-linux.yml');
    expect(channelFile('linux', 'arm64')).toBe('latest-linux-arm64.yml');
    expect(channelFile('win32', 'x64')).toBe('latest.yml');
    expect(channelFile('darwin', 'arm64')).toBe('latest-mac.yml');
  });

  it('reads the version and the first file, resolved against the feed', () => {
    const text = yml([
      'version: 1.5.0',
      'files:',
      '  - url: Burrow-1.5.0.AppImage',
      `    sha512: ${SHA}`,
      '    size: 1234',
      '    blockMapSize: 10',
      'path: Burrow-1.5.0.AppImage',
      `sha512: ${SHA}`,
      "releaseDate: '2026-11-26T10:00:00.000Z'",
    ]);
    expect(parseRelease(text, FEED, 'latest-linux.yml')).toEqual({
      version: '1.5.0',
      url: 'https://updates.example/burrow/Burrow-1.5.0.AppImage',
      fileName: 'Burrow-1.5.0.AppImage',
      sha512: SHA,
      size: 1234,
    });
  });

  it('refuses a bad file in one line naming the field', () => {
    const file = (...lines: string[]) => yml(['version: 1.5.0', 'files:', ...lines]);
    const cases: [string, string][] = [
      ['files: []', 'latest.yml: version is missing'],
      [yml(['version: soon']), 'latest.yml: version must be a version like 1.4.0'],
      [file(), 'latest.yml: files[0].url is missing'],
      [
        file('  - url: a.exe', '    sha512: abc'),
        'latest.yml: files[0].sha512 must be a base64 sha512',
      ],
      [
        file('  - url: a.exe', `    sha512: ${SHA}`, '    size: -1'),
        'latest.yml: files[0].size must be a whole number of bytes',
      ],
      [file('  - url: a.exe', `    sha512: ${SHA}`), 'latest.yml: files[0].size is missing'],
      [
        file('  - url: file:///etc/passwd', `    sha512: ${SHA}`, '    size: 1'),
        'latest.yml: files[0].url must be an https address',
      ],
      [
        file('  - url: http://updates.example/burrow/a.exe', `    sha512: ${SHA}`, '    size: 1'),
        'latest.yml: files[0].url must be an https address',
      ],
      [
        file('  - url: https://mirror.example/a.exe', `    sha512: ${SHA}`, '    size: 1'),
        "latest.yml: files[0].url must be on the feed's host (updates.example), not mirror.example",
      ],
      [
        file('  - url: https://updates.example/', `    sha512: ${SHA}`, '    size: 1'),
        'latest.yml: files[0].url must end in a file name',
      ],
    ];
    for (const [text, message] of cases)
      expect(() => parseRelease(text, FEED, 'latest.yml'), message).toThrow(message);
  });

  it('may name a file on the host GitHub serves a release’s files from, for a feed on GitHub', () => {
    const github = 'https://github.com/acme/burrow/releases/latest/download/latest-linux.yml';
    const text = (url: string) =>
      yml(['version: 1.5.0', 'files:', `  - url: ${url}`, `    sha512: ${SHA}`, '    size: 1']);
    const assets = 'https://release-assets.githubusercontent.com/burrow/Burrow-1.5.0.AppImage';
    expect(parseRelease(text(assets), github, 'latest-linux.yml').url).toBe(assets);
    expect(() => parseRelease(text(assets), FEED, 'latest-linux.yml')).toThrow(
      "latest-linux.yml: files[0].url must be on the feed's host (updates.example), not release-assets.githubusercontent.com",
    );
  });
});

describe("the feed's address, from the app-update.yml beside the packaged app", () => {
  it('is the generic provider’s url, or a GitHub repository’s latest release', () => {
    const generic =
      'provider: generic\nurl: https://updates.example/burrow\nupdaterCacheDirName: burrow-updater\n';
    expect(feedUrlOf(generic)).toBe('https://updates.example/burrow');
    expect(feedUrlOf('owner: acme\nrepo: burrow\nprovider: github\n')).toBe(
      'https://github.com/acme/burrow/releases/latest/download/',
    );
    expect(() => feedUrlOf('provider: s3\nbucket: b\n')).toThrow(
      'app-update.yml: provider must be generic (with a url) or github (with owner and repo)',
    );
  });

  it('is https: a feed over plain http is refused', () => {
    for (const url of ['http://updates.example/burrow', 'ftp://updates.example/', 'updates'])
      expect(() => feedUrlOf(`provider: generic\nurl: ${url}\n`), url).toThrow(
        'app-update.yml: url must be an https address',
      );
  });
});
