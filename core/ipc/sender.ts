/** The origin the app's own renderer is served from in Electron (a privileged custom scheme). */
export const APP_ORIGIN = 'app://burrow';

/**
 * Only the app's own top-level page may call into the main process. Anything else that manages
 * to run in a renderer (an iframe, a page navigated to by mistake) is refused, whatever it asks.
 */
export function isTrustedSender(frameUrl: string | undefined, isMainFrame: boolean): boolean {
  if (!frameUrl || !isMainFrame) return false;
  try {
    return new URL(frameUrl).origin === APP_ORIGIN;
  } catch {
    return false;
  }
}

/** Navigation inside a window is never allowed: the app is a single page loaded once. */
export function isAllowedNavigation(targetUrl: string, currentUrl: string): boolean {
  try {
    const target = new URL(targetUrl);
    const current = new URL(currentUrl);
    return target.origin === APP_ORIGIN && target.origin === current.origin && target.pathname === current.pathname;
  } catch {
    return false;
  }
}
