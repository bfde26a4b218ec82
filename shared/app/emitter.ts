/** Where a failing listener is told; `console.error` unless the owner gives another. */
export type ListenerErrorLog = (message: string, error: unknown) => void;

/**
 * The one listener mechanism of core and of the renderer's bridges: listeners hear each value in
 * the order they subscribed, and one that throws is logged and skipped, so it breaks neither the
 * emitter's caller (a settings update already written, a poll) nor the listeners after it.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** `name` says in the log whose listener failed. */
  constructor(
    private readonly name: string,
    private readonly log: ListenerErrorLog = (message, error) => console.error(message, error),
  ) {}

  /** Returns the unsubscribe. */
  subscribe(listener: (value: T) => void): () => void {
    // Wrapped, so that one function subscribed twice is two subscriptions.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.log(`Burrow: a listener of ${this.name} failed`, error);
      }
    }
  }

  /** Whether anyone listens: an emitter may skip computing a value nobody hears. */
  get size(): number {
    return this.listeners.size;
  }

  clear(): void {
    this.listeners.clear();
  }
}
