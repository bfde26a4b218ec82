import {
  BridgeCallError,
  createEventFanout,
  settleReply,
  type Bridge,
  type IpcReply,
} from '../../../shared/app/ipc/bridge.ts';
import type { IpcEvent } from '../../../shared/app/ipc/contract.ts';
import { STATE_EVENTS } from '../../../shared/app/ipc/state-events.ts';
import { PAGE_SECRET_HEADER } from '../../../shared/app/ipc/browser-mode.ts';
import { readEventStream } from './event-stream.ts';

const NEW_ADDRESS =
  'Open the newest address in the terminal where `npm run web` runs: it prints a new one when the last is used up.';

/** Why this tab cannot call Burrow: said on the page in place of empty screens. */
const SIGNED_OUT = `This tab is signed out: Burrow restarted, or newer tabs took its place. ${NEW_ADDRESS}`;
const ADDRESS_USED = `This address is used up: each address Burrow prints signs one browser in, once. ${NEW_ADDRESS}`;

/**
 * Where the tab keeps its page secret: storage of this tab and this origin only, which a reload
 * keeps and no page of another port can read (a cookie would reach them all).
 */
const PAGE_SECRET_KEY = 'burrow.pageSecret';

/**
 * Browser mode's token arrives in the address's fragment (`#token=…`), which browsers never send
 * to a server. It is wiped from the address bar and the tab's history before anything else, then
 * exchanged for the session's page secret, which uses it up: a reload rides on the secret the
 * tab keeps, the address in the history opens nothing.
 */
export async function exchangeToken(location: Location, history: History): Promise<void> {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!token) return;
  history.replaceState(null, '', location.pathname + location.search);
  const response = await fetch('/ipc/session', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (response?.status === 401)
    throw new BridgeCallError({ code: 'BRIDGE_ADDRESS_USED', message: ADDRESS_USED });
  const answer = response?.ok
    ? ((await response.json().catch(() => ({}))) as { page?: unknown })
    : {};
  if (typeof answer.page !== 'string') throw offline(response);
  sessionStorage.setItem(PAGE_SECRET_KEY, answer.page);
}

/** The headers that carry this tab's session. */
function credentials(): Record<string, string> {
  const page = sessionStorage.getItem(PAGE_SECRET_KEY);
  return page === null ? {} : { [PAGE_SECRET_HEADER]: page };
}

function offline(response: Response | undefined): BridgeCallError {
  if (response?.status === 401)
    return new BridgeCallError({ code: 'BRIDGE_NO_SESSION', message: SIGNED_OUT });
  return new BridgeCallError({
    code: response ? `BRIDGE_HTTP_${response.status}` : 'BRIDGE_OFFLINE',
    message:
      'Burrow is not running (the browser-mode server did not answer): start it with `npm run web`.',
  });
}

/** How soon a stream refused while the session holds is tried again. */
const REOPEN_MS = 3_000;
/** How soon a stream that was open comes back after a drop. */
const RECONNECT_MS = 1_000;

/**
 * The Bridge of browser mode: each call is one POST to the page's own origin, events come on
 * one server-sent event stream, both carried by the tab's page secret. A stream the server
 * dropped (this tab read too slowly) comes back and the states it carries are asked again; a
 * session that is gone goes to `onSignedOut`, once.
 */
export function createHttpBridge(onSignedOut: (message: string) => void): Bridge {
  const events = createEventFanout();
  let stream: AbortController | undefined;
  let signedOut = false;
  /** Events that came while a resync was asking: newer than what it will answer. */
  const arrived = new Set<string>();

  const signOut = () => {
    if (signedOut) return;
    signedOut = true;
    stream?.abort();
    // Without a token this asks the server for a new address in its terminal.
    void fetch('/ipc/session', { method: 'POST' }).catch(() => undefined);
    onSignedOut(SIGNED_OUT);
  };

  const resync = async () => {
    arrived.clear();
    await Promise.all(
      Object.entries(STATE_EVENTS).map(async ([name, call]) => {
        const payload = await bridge.invoke(call).catch(() => null);
        if (payload !== null && !arrived.has(name)) events.deliver({ name, payload } as IpcEvent);
      }),
    );
  };

  /** One stream at a time; `reconnecting` when this tab may have missed events meanwhile. */
  const listen = async (reconnecting = false) => {
    if (stream || signedOut) return;
    const controller = new AbortController();
    stream = controller;
    const response = await fetch('/ipc/events', {
      headers: credentials(),
      signal: controller.signal,
    }).catch(() => undefined);
    if (response?.status === 401) return signOut();
    let delay = REOPEN_MS;
    if (response?.ok && response.body) {
      if (reconnecting) void resync();
      await readEventStream(response.body, (data) => {
        const event = JSON.parse(data) as IpcEvent;
        arrived.add(event.name);
        events.deliver(event);
      }).catch(() => undefined);
      delay = RECONNECT_MS;
    }
    stream = undefined;
    if (!controller.signal.aborted) setTimeout(() => void listen(true), delay);
  };

  const bridge: Bridge = {
    async invoke(name, ...args) {
      const response = await fetch('/ipc/invoke', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...credentials() },
        body: JSON.stringify({ name, args }),
      }).catch(() => undefined);
      if (response?.status === 401) signOut();
      if (!response?.ok) throw offline(response);
      return settleReply((await response.json()) as IpcReply);
    },
    on(name, listener) {
      void listen();
      return events.on(name, listener);
    },
  };
  return bridge;
}
