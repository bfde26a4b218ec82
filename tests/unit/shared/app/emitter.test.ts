import { describe, expect, it } from 'vitest';
import { Emitter } from '../../../../shared/app/emitter.ts';
import { createEventFanout } from '../../../../shared/app/ipc/bridge.ts';
import { EventHub } from '../../../../core/ipc/events.ts';
import { SettingsService } from '../../../../core/settings/settings.ts';
import type { KeyValueStore } from '../../../../core/store.ts';

function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (key) => data.get(key),
    set: (key, value) => void data.set(key, value),
    delete: (key) => void data.delete(key),
  };
}

describe('the emitter', () => {
  it('isolates a failing listener: logged, the others and the caller go on', () => {
    const logged: unknown[] = [];
    const emitter = new Emitter<number>('numbers', (message, error) =>
      logged.push([message, error]),
    );
    const heard: number[] = [];
    emitter.subscribe(() => {
      throw new Error('boom');
    });
    emitter.subscribe((n) => heard.push(n));
    expect(() => emitter.emit(1)).not.toThrow();
    expect(heard).toEqual([1]);
    expect(logged).toEqual([['Burrow: a listener of numbers failed', new Error('boom')]]);
  });

  it('unsubscribes one subscription, even of a function subscribed twice', () => {
    const emitter = new Emitter<string>('strings');
    const heard: string[] = [];
    const listener = (s: string) => heard.push(s);
    const first = emitter.subscribe(listener);
    emitter.subscribe(listener);
    first();
    emitter.emit('a');
    expect(heard).toEqual(['a']);
    expect(emitter.size).toBe(1);
  });

  it('lets a listener unsubscribe itself while the value is told', () => {
    const emitter = new Emitter<number>('numbers');
    const heard: string[] = [];
    const stop = emitter.subscribe(() => {
      heard.push('once');
      stop();
    });
    emitter.subscribe(() => heard.push('always'));
    emitter.emit(1);
    emitter.emit(2);
    expect(heard).toEqual(['once', 'always', 'always']);
  });
});

describe('event sources built on it', () => {
  it('a failing settings listener does not break update() after the store was written', () => {
    const store = memoryStore();
    const settings = new SettingsService(store);
    const heard: number[] = [];
    settings.onChange(() => {
      throw new Error('a closed window');
    });
    settings.onChange((value) => heard.push(value.pollIntervalSeconds));
    expect(settings.update({ pollIntervalSeconds: 30 }).pollIntervalSeconds).toBe(30);
    expect(heard).toEqual([30]);
    expect(store.data.get('settings')).toMatchObject({ pollIntervalSeconds: 30 });
  });

  it('the event hub and the bridge fan-out keep delivering past a failing listener', () => {
    const hub = new EventHub();
    const fanout = createEventFanout();
    const heard: unknown[] = [];
    hub.onEvent(() => {
      throw new Error('gone');
    });
    hub.onEvent((event) => fanout.deliver(event));
    fanout.on('settings.changed', () => {
      throw new Error('a broken screen');
    });
    fanout.on('settings.changed', (value) => heard.push(value.theme));
    const settings = new SettingsService(memoryStore());
    expect(() => hub.emit('settings.changed', settings.get())).not.toThrow();
    expect(heard).toEqual(['system']);
  });
});
