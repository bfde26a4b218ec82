import { HOME, routeHref } from '../../../shared/app/routes.ts';
import { SEARCH_HREF } from '../../../shared/app/tray.ts';

/**
 * True when the window's address is the tray's "Search…" (`SEARCH_HREF`): it is put back to
 * `previous` (the screen shown before; the home screen when there was none), without a
 * navigation, so that the palette opens over the screen as it was.
 */
export function takeSearchAddress(previous: string): boolean {
  if (window.location.hash !== SEARCH_HREF) return false;
  const back = previous && previous !== SEARCH_HREF ? previous : routeHref(HOME);
  history.replaceState(history.state, '', back);
  return true;
}
