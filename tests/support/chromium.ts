/**
 * How every test launches Chromium. Debian's build is used because Playwright cannot download
 * its own here; the flags stop Chromium from reaching for Google's hosts, which this machine's
 * closed network refuses many times over at each start.
 */
export const chromiumExecutable = process.env.BURROW_CHROMIUM ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
