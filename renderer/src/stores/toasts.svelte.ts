import type { IpcError } from '../../../shared/app/ipc/contract.ts';

export type Toast = {
  readonly id: number;
  readonly tone: 'info' | 'success' | 'error';
  readonly message: string;
  readonly problem?: IpcError;
  /** The page of what the message names: the message links there (the id stays on that page). */
  readonly href?: string;
  /** Stays until dismissed: what it says is said nowhere else (a summary of what was held). */
  readonly lasting?: true;
};

export type ToastOptions = Pick<Toast, 'problem' | 'href' | 'lasting'>;

const LIFETIME_MS = { info: 5_000, success: 4_000, error: 12_000 } as const;
/*
 * A bounded stack, calm at 800×600: at most three toasts, and a success replaces the success
 * before it. A success says what the person just did, which the window already shows (the rule
 * added, the name saved), so only the newest is worth the room; three "Added…" stacked up covered
 * the very table they were about. Errors and notices stay side by side: each says something
 * shown nowhere else.
 */
const MOST = 3;

/** What holds the toasts on screen: a pointer over them, or the keyboard's focus in them. */
export type Holder = 'pointer' | 'focus';

type Countdown = { left: number; since: number; timer?: ReturnType<typeof setTimeout> };

/**
 * Short messages in a corner of the window; errors stay longer and keep their details. While a
 * person points at them or tabs into them (to read an error, copy its operation id), none goes
 * away: each resumes its own time left when they are let go.
 */
export class Toasts {
  items = $state<Toast[]>([]);
  private next = 1;
  // Plain records: nothing on screen depends on them, so they need no reactivity.
  private countdowns: Record<number, Countdown> = {};
  private readonly held: Record<Holder, boolean> = { pointer: false, focus: false };

  private get holding(): boolean {
    return this.held.pointer || this.held.focus;
  }

  show(tone: Toast['tone'], message: string, options: ToastOptions = {}): void {
    const toast: Toast = { id: this.next++, tone, message, ...options };
    if (tone === 'success')
      for (const old of this.items)
        if (old.tone === 'success' && !old.lasting) this.dismiss(old.id);
    // The oldest of those that go by themselves make room; a lasting one waits for its person.
    const over = this.items.length - (MOST - 1);
    const passing = this.items.filter((t) => !t.lasting);
    for (const old of passing.slice(0, Math.max(0, over))) this.dismiss(old.id);
    this.items = [...this.items, toast];
    if (toast.lasting) return;
    this.countdowns[toast.id] = { left: LIFETIME_MS[tone], since: 0 };
    if (!this.holding) this.run(toast.id);
  }

  error(problem: IpcError): void {
    this.show('error', problem.message, { problem });
  }

  dismiss(id: number): void {
    clearTimeout(this.countdowns[id]?.timer);
    delete this.countdowns[id];
    this.items = this.items.filter((t) => t.id !== id);
  }

  hold(by: Holder): void {
    if (!this.holding)
      for (const countdown of Object.values(this.countdowns)) {
        clearTimeout(countdown.timer);
        countdown.left -= Date.now() - countdown.since;
      }
    this.held[by] = true;
  }

  release(by: Holder): void {
    if (!this.held[by]) return;
    this.held[by] = false;
    if (!this.holding) for (const id of Object.keys(this.countdowns)) this.run(Number(id));
  }

  private run(id: number): void {
    const countdown = this.countdowns[id];
    if (!countdown) return;
    countdown.since = Date.now();
    countdown.timer = setTimeout(() => this.dismiss(id), Math.max(0, countdown.left));
  }
}
