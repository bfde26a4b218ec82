/*
 * Burrow starts in the tray. The window opens at start only when there is a reason: the very
 * first launch (the person has just installed it and expects to see something) or an explicit
 * ask. A start at login (`--hidden`, or macOS's login item) never opens it.
 */

export const LAUNCHED_BEFORE_KEY = 'shell.launchedBefore';

export type StartContext = {
  readonly argv: readonly string[];
  readonly launchedBefore: boolean;
  readonly openedAtLogin: boolean;
};

export function opensWindowAtStart({ argv, launchedBefore, openedAtLogin }: StartContext): boolean {
  if (argv.includes('--hidden') || openedAtLogin) return false;
  return !launchedBefore;
}
