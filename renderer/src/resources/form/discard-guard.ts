import type { Problem } from './form.ts';
import type { Field } from '../kinds/kind-shape.ts';

const FOCUSABLE = 'input, select, textarea, button';

/**
 * Brings the first problem of a form into view and puts the focus on its input (the entry of a
 * list it names, or the first input of a group); with none on a field, the alert at the top.
 */
export function focusFirst(
  form: HTMLFormElement,
  idPrefix: string,
  fields: readonly Field[],
  problems: Readonly<Record<string, Problem>>,
): void {
  const field = fields.find((f) => problems[f.name]);
  const index = field ? problems[field.name]?.index : undefined;
  const id = field && `${idPrefix}-${field.name}${index === undefined ? '' : `-${index}`}`;
  const found = id ? document.getElementById(id) : form.querySelector<HTMLElement>('[role=alert]');
  const target = found?.matches(FOCUSABLE) ? found : (found?.querySelector(FOCUSABLE) ?? found);
  if (!(target instanceof HTMLElement)) return;
  target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
}

/** The question before what was typed in `where` ("this form") is dropped. */
export const discardWords = (where: string) => ({
  title: 'Discard your changes?',
  message: `What you typed in ${where} is lost.`,
  confirmLabel: 'Discard',
  cancelLabel: 'Keep editing',
});

/**
 * Keeps what a dialog holds (a form with changes, a token not copied yet) from being dropped
 * unasked: Escape on the dialog `inside` is in, and a change of the window's address (a link,
 * the tray, a notification, Back) are held, and `ask` gets what to do once the person agrees.
 * Answers the function that stops guarding.
 */
export function guardDiscard(
  inside: HTMLElement,
  guard: { dirty: () => boolean; ask: (then: () => void) => void; close: () => void },
): () => void {
  const dialog = inside.closest('dialog');
  let leaving = false;
  const holds = () => !leaving && guard.dirty();

  // Escape is held at its keydown: a dialog's own cancel can be skipped by the browser when it
  // comes twice without the person touching the page in between.
  const escape = (event: KeyboardEvent) => {
    const inner = event.target instanceof Element ? event.target.closest('dialog') : null;
    if (event.key !== 'Escape' || inner !== dialog || !holds()) return;
    event.preventDefault();
    event.stopPropagation();
    guard.ask(guard.close);
  };
  const cancel = (event: Event) => {
    if (event.target !== dialog || !holds()) return;
    event.preventDefault();
    guard.ask(guard.close);
  };
  // The Navigation API tells of a change of address before it happens, so the window's router
  // never sees one the person has not agreed to. Where a browser lacks it, navigating still
  // closes the form unasked.
  const addresses = 'navigation' in window ? window.navigation : undefined;
  const navigate = (event: NavigateEvent) => {
    if (!event.cancelable || !holds()) return;
    event.preventDefault();
    const { url, key } = event.destination;
    guard.ask(() => {
      leaving = true;
      guard.close();
      if (event.navigationType === 'traverse' && key)
        void addresses?.traverseTo(key).finished?.catch(() => undefined);
      else location.href = url;
    });
  };

  dialog?.addEventListener('keydown', escape, true);
  dialog?.addEventListener('cancel', cancel);
  addresses?.addEventListener('navigate', navigate);
  return () => {
    dialog?.removeEventListener('keydown', escape, true);
    dialog?.removeEventListener('cancel', cancel);
    addresses?.removeEventListener('navigate', navigate);
  };
}
