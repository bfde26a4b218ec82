import type { AgentsSnapshot } from '../../shared/app/agents.ts';
import { Emitter } from '../../shared/app/emitter.ts';
import type { MonitorEvent, MonitorSnapshot } from '../../shared/app/monitor.ts';
import type { ActionEvent } from '../../shared/app/sessions/actions.ts';
import { systemClock, type Clock } from '../../shared/node/clock.ts';
import { AgentRegistry } from './registry.ts';
import { AgentsFile } from './store.ts';

export type AgentsServiceOptions = {
  /** The app's data folder: agents.json lives in it. */
  readonly dataDir: string;
  readonly watched: {
    snapshot(): MonitorSnapshot;
    onEvent(listener: (event: MonitorEvent) => void): () => void;
    onSnapshot(listener: (snapshot: MonitorSnapshot) => void): () => void;
  };
  readonly sessions: { onAction(listener: (event: ActionEvent) => void): () => void };
  /** The app's profiles: a removed one's agents go with it. */
  readonly profiles: {
    state(): { readonly profiles: readonly { readonly id: string }[] };
    onChange(listener: () => void): () => void;
  };
  /** Wall-clock time (epoch ms). */
  readonly now?: () => number;
  /** The timer of gathered writes. */
  readonly clock?: Clock;
  /** How long changes gather before agents.json is written; default 2 s. */
  readonly writeDelayMs?: number;
  readonly log?: (message: string) => void;
};

/**
 * The agents of every profile (shared/app/agents.ts): the registry fed by the monitor and the
 * session actions, kept in agents.json, told to subscribers on every change a person sees.
 */
export class AgentsService {
  private readonly changes = new Emitter<AgentsSnapshot>('the agents');
  private readonly stops: (() => void)[] = [];
  private closed = false;

  private constructor(
    private readonly registry: AgentRegistry,
    private readonly file: AgentsFile,
  ) {}

  static async open(options: AgentsServiceOptions): Promise<AgentsService> {
    const now = options.now ?? Date.now;
    const log = options.log ?? ((message: string) => console.warn(message));
    const file = new AgentsFile(
      options.dataDir,
      options.clock ?? systemClock,
      options.writeDelayMs ?? 2_000,
      log,
    );
    const registry = new AgentRegistry(now);
    registry.load(await file.read());
    const service = new AgentsService(registry, file);
    const ids = () => options.profiles.state().profiles.map((p) => p.id);
    // Both run: `||` would skip the week's expiry whenever a removed profile's agents went.
    const dropped = registry.keepProfiles(ids());
    service.update(registry.expire() || dropped);
    const polled = (snapshot: MonitorSnapshot) => {
      let changed = false;
      for (const profile of snapshot.profiles) changed = registry.applySnapshot(profile) || changed;
      service.update(registry.expire() || changed);
    };
    service.stops.push(
      options.watched.onEvent((event) => service.update(registry.applyEvent(event))),
      options.watched.onSnapshot(polled),
      options.sessions.onAction((event) => service.update(registry.applyAction(event))),
      options.profiles.onChange(() => service.update(registry.keepProfiles(ids()))),
    );
    // A poll may have ended while the file was read.
    polled(options.watched.snapshot());
    return service;
  }

  snapshot(profileId?: string): AgentsSnapshot {
    return this.registry.snapshot(profileId);
  }

  onChange(listener: (snapshot: AgentsSnapshot) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** Drops an offline or stopped agent from the list; answers the profile's agents. */
  dismiss(profileId: string, agentId: string): AgentsSnapshot {
    this.registry.dismiss(profileId, agentId);
    this.update(true);
    return this.snapshot(profileId);
  }

  /** Stops listening and writes what is left (every agent's last "last seen" too). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
    this.changes.clear();
    await this.file.flush(() => this.registry.entries());
  }

  private update(changed: boolean): void {
    if (!changed || this.closed) return;
    this.file.schedule(() => this.registry.entries());
    if (this.changes.size > 0) this.changes.emit(this.snapshot());
  }
}
