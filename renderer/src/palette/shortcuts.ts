import type { ScreenId } from '../../../shared/app/routes.ts';

/*
 * The screens' keyboard shortcuts, as mail and issue trackers have them: "g" then a letter, typed
 * anywhere but in a field (so they never take a character someone meant to type). One letter per
 * screen, the first of its name where free.
 */

export type Shortcut = { readonly screen: ScreenId; readonly keys: string };

export const SHORTCUTS: readonly Shortcut[] = [
  { screen: 'sessions', keys: 'g s' },
  { screen: 'edges', keys: 'g e' },
  { screen: 'backends', keys: 'g b' },
  { screen: 'credentials', keys: 'g c' },
  { screen: 'ssh', keys: 'g h' },
  { screen: 'ip-policies', keys: 'g i' },
  { screen: 'agent-ingresses', keys: 'g a' },
  { screen: 'abuse-reports', keys: 'g r' },
  { screen: 'snapshots', keys: 'g n' },
  { screen: 'activity', keys: 'g t' },
  { screen: 'settings', keys: 'g ,' },
];

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
