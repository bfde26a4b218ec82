import { Emitter } from '../../shared/app/emitter.ts';
import type { IpcEvent, IpcEventName, IpcEventPayload } from '../../shared/app/ipc/contract.ts';

/**
 * Every event core tells the windows, in one stream: Electron forwards it to each window over one
 * channel, browser mode to each open event stream. A subscriber that throws (a window that went
 * away mid-delivery) is logged; the others still get the event.
 */
export class EventHub {
  private readonly stream = new Emitter<IpcEvent>('the event stream');

  emit<E extends IpcEventName>(name: E, payload: IpcEventPayload<E>): void {
    this.stream.emit({ name, payload } as IpcEvent);
  }

  onEvent(subscriber: (event: IpcEvent) => void): () => void {
    return this.stream.subscribe(subscriber);
  }

  /** How many subscribers listen (browser mode's streams unsubscribe when they close). */
  get size(): number {
    return this.stream.size;
  }
}
