import type { Notification } from '../shared/notifications.ts';
import type { TrayModel } from '../shared/tray.ts';

/*
 * What the shell needs from core's monitor, tray model and notification policy, as small
 * interfaces: electron/ renders and reacts, core decides. main.ts reads them off the Burrow
 * object where it has them (see `shellSources`), so the shell typechecks before and after core
 * wires them in.
 */

export interface TrayModelSource {
  model(): TrayModel;
  /** Called on every change of the model; returns the unsubscribe. */
  subscribe(listener: (model: TrayModel) => void): () => void;
  /** A session, profile or notification item of the menu, carried out by core by its id. */
  run(itemId: string): Promise<unknown>;
}

export interface NotificationSource {
  /** Each notification the policy decided to show, once. */
  subscribe(listener: (notification: Notification) => void): () => void;
}

export interface MonitorControl {
  pause(): void;
  resume(): void;
}

export type ShellSources = {
  readonly tray?: TrayModelSource;
  readonly notifications?: NotificationSource;
  readonly monitor?: MonitorControl;
};

/**
 * The sources a Burrow object offers; members it does not have yet stay undefined. Typed, not
 * cast: once core/burrow.ts adds `tray`, `notifications` or `monitor`, a shape that differs from
 * these interfaces fails the typecheck of main.ts.
 */
export function shellSources(burrow: ShellSources & { close(): Promise<void> }): ShellSources {
  return burrow;
}
