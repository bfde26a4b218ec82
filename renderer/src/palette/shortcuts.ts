import { SCREENS, type ScreenId } from '../../../shared/app/routes.ts';

/*
 * The screens' keyboard shortcuts, as mail and issue trackers have them: "g" then a letter, typed
 * anywhere but in a field (so they never take a character someone meant to type). One letter per
 * screen, the first of its name where free.
 */

export type Shortcut = { readonly screen: ScreenId; readonly keys: string };

/** A record over every screen: a screen added to the routes without its keys does not compile. */
const KEYS: Record<ScreenId, string> = {
  sessions: 'g s',
  edges: 'g e',
  backends: 'g b',
  credentials: 'g c',
  ssh: 'g h',
  'ip-policies': 'g i',
  'agent-ingresses': 'g a',
  'abuse-reports': 'g r',
  snapshots: 'g n',
  drift: 'g d',
  activity: 'g t',
  settings: 'g ,',
};

/** In the screens' own order, as the navigation lists them. */
export const SHORTCUTS: readonly Shortcut[] = SCREENS.map(({ id }) => ({
  screen: id,
  keys: KEYS[id],
}));

/** The screen `second` goes to after "g", if any. */
export function screenAfterG(second: string): ScreenId | undefined {
  return SHORTCUTS.find((s) => s.keys === `g ${second.toLowerCase()}`)?.screen;
}

/** True when the key is typed into something that takes text: shortcuts leave it alone. */
export function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.matches('input:not([type=checkbox],[type=radio],[type=button]), textarea, select')
  );
}

/** Ctrl+K, or Cmd+K on a Mac: the palette, from anywhere, fields included. */
export function opensPalette(event: KeyboardEvent): boolean {
  return event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey;
}
