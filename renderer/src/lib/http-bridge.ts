import {
  BridgeCallError,
  createEventFanout,
  settleReply,
  type Bridge,
  type IpcReply,
} from '../../../shared/ipc/bridge.ts';
import type { IpcEvent } from '../../../shared/ipc/contract.ts';

/**
 * Browser mode's token arrives in the address's fragment (`#token=…`), which browsers never send
 * to a server. It is exchanged at once for an HttpOnly session cookie and wiped from the address
 * bar, so the page never keeps it: a reload rides on the cookie, a copied link carries nothing.
 */
export async function exchangeToken(location: Location, history: History): Promise<void> {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!token) return;
  history.replaceState(null, '', location.pathname + location.search);
  const response = await fetch('/ipc/session', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (!response?.ok) throw offline(response);
}

function offline(response: Response | undefined): BridgeCallError {
  if (response?.status === 401)
    return new BridgeCallError({
      code: 'BRIDGE_NO_SESSION',
      message: 'This tab is not signed in to Burrow: open the address that `npm run web` printed.',
    });
  return new BridgeCallError({
    code: response ? `BRIDGE_HTTP_${response.status}` : 'BRIDGE_OFFLINE',
    message: 'Burrow is not running (the browser-mode server did not answer)',
  });
}

/**
 * The Bridge of browser mode: each call is one POST to the page's own origin, events come on
 * one server-sent event stream, both carried by the session cookie.
 */
export function createHttpBridge(): Bridge {
  const events = createEventFanout();
  let stream: EventSource | undefined;
  const listen = () => {
    if (stream) return;
    stream = new EventSource('/ipc/events');
    stream.onmessage = (message: MessageEvent<string>) =>
      events.deliver(JSON.parse(message.data) as IpcEvent);
  };
  return {
    async invoke(name, ...args) {
      const response = await fetch('/ipc/invoke', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, args }),
      }).catch(() => undefined);
      if (!response?.ok) throw offline(response);
      return settleReply((await response.json()) as IpcReply);
    },
    on(name, listener) {
      listen();
      return events.on(name, listener);
    },
  };
}
