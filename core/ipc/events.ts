import type { IpcEvent, IpcEventName, IpcEventPayload } from '../../shared/ipc/contract.ts';

/**
 * Every event core tells the windows, in one stream: Electron forwards it to each window over one
 * channel, browser mode to each open event stream. A subscriber that throws is dropped from this
 * delivery only; the others still get the event.
 */
export class EventHub {
  private readonly subscribers = new Set<(event: IpcEvent) => void>();

  emit<E extends IpcEventName>(name: E, payload: IpcEventPayload<E>): void {
    const event = { name, payload } as IpcEvent;
    for (const subscriber of this.subscribers) {
      try {
        subscriber(event);
      } catch {
        // A window that went away mid-delivery is the shell's to clean up.
      }
    }
  }

  subscribe(subscriber: (event: IpcEvent) => void): () => void {
    this.subscribers.add(subscriber);
    return () => void this.subscribers.delete(subscriber);
  }

  get size(): number {
    return this.subscribers.size;
  }
}
