/*
 * Where keyboard focus goes when what it was on goes away: a screen replaced by the next, a
 * dialog closed after creating or deleting. Left alone it falls to <body>, and the next Tab
 * starts over from the top of the window.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';
/** A screen may still be loading what the focus should land on (a detail, a list). */
const PATIENCE_MS = 3_000;
/** After this long without `selector`, `fallback` will do. */
const FALLBACK_AFTER_MS = 1_000;

let pending: number | undefined;
let afterNavigation: string | undefined;

/**
 * Focuses the first element `selector` finds as soon as it is in the page; `fallback` once the
 * first has been missing a while. A newer request replaces one still waiting.
 */
export function focusWhenShown(selector: string, fallback?: string): void {
  if (pending !== undefined) cancelAnimationFrame(pending);
  const started = performance.now();
  const look = () => {
    pending = undefined;
    const waited = performance.now() - started;
    const found =
      document.querySelector<HTMLElement>(selector) ??
      (fallback && waited > FALLBACK_AFTER_MS
        ? document.querySelector<HTMLElement>(fallback)
        : null);
    if (found) {
      // A heading or a region takes focus from a script, not from Tab.
      if (!found.matches(FOCUSABLE)) found.tabIndex = -1;
      found.focus();
    } else if (waited < PATIENCE_MS) pending = requestAnimationFrame(look);
  };
  pending = requestAnimationFrame(look);
}

/** Asks the next navigation to focus `selector` instead of the page's heading. */
export function focusAfterNavigation(selector: string): void {
  afterNavigation = selector;
}

/** The target a component asked for (`focusAfterNavigation`), once. */
export function takeNavigationFocus(): string | undefined {
  const selector = afterNavigation;
  afterNavigation = undefined;
  return selector;
}
