/** The origin the app's own renderer is served from in Electron (a privileged custom scheme). */
export const APP_ORIGIN = 'app://burrow';

const APP_URL = new URL(APP_ORIGIN);

function parse(url: string | undefined): URL | undefined {
  if (!url) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

// WHATWG URL gives custom schemes an opaque ("null") origin outside Electron, so the scheme and
// host are compared instead of `origin`.
function isAppUrl(url: URL | undefined): url is URL {
  return url !== undefined && url.protocol === APP_URL.protocol && url.host === APP_URL.host;
}

/**
 * Only the app's own top-level page may call into the main process. Anything else that manages
 * to run in a renderer (an iframe, a page navigated to by mistake) is refused, whatever it asks.
 */
export function isTrustedSender(frameUrl: string | undefined, isMainFrame: boolean): boolean {
  return isMainFrame && isAppUrl(parse(frameUrl));
}

/**
 * The one permission a page gets: writing text to the clipboard, for the app's own top-level page
 * (its Copy buttons; the browser still asks for a click first). Electron refuses it unless
 * granted, and a refusal is silent: Copy did nothing. Everything else is refused, to any page.
 */
export function isGrantedPermission(
  permission: string,
  requestingUrl: string | undefined,
  isMainFrame: boolean,
): boolean {
  return permission === 'clipboard-sanitized-write' && isTrustedSender(requestingUrl, isMainFrame);
}

/** Navigation inside a window is never allowed beyond a change of hash on the app's page. */
export function isAllowedNavigation(targetUrl: string, currentUrl: string): boolean {
  const target = parse(targetUrl);
  const current = parse(currentUrl);
  return isAppUrl(target) && isAppUrl(current) && target.pathname === current.pathname;
}

/** A link a page may hand to the person's browser: https, nothing else (no file:, no custom apps). */
export function isExternalLink(url: string): boolean {
  return parse(url)?.protocol === 'https:';
}
