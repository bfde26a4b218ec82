import type { WebPreferences } from 'electron';

/** What the stand-in `electron` tells the test: each thing the main process asked of it. */
export type FromStandIn =
  | { what: 'sandbox' | 'lock' | 'show' | 'tray.destroyed' }
  | { what: 'exit'; code: number }
  | { what: 'ipc.handle'; channel: string }
  | { what: 'event'; channel: string; payload: unknown }
  | { what: 'window'; webPreferences: WebPreferences }
  | { what: 'load'; url: string }
  | { what: 'schemes'; schemes: string[] }
  | { what: 'protocol'; scheme: string }
  | { what: 'headers'; headers: Record<string, string | string[]> }
  | { what: 'permissions'; by: 'check' | 'request'; granted: string[] }
  | { what: 'tray.icon'; file: string }
  | { what: 'tray.tooltip'; tooltip: string }
  | { what: 'tray.menu'; labels: string[] }
  | { what: 'notification'; title: string; body: string }
  | { what: 'reply'; id: number; reply: unknown };

/** What the test asks of it: an IPC call from a page at `frameUrl`, or quitting. */
export type ToStandIn =
  | { do: 'invoke'; id: number; channel: string; frameUrl: string; name: string; args: unknown[] }
  | { do: 'quit' };
