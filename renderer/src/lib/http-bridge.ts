import {
  BridgeCallError,
  settleReply,
  type Bridge,
  type IpcReply,
} from '../../../shared/ipc/bridge.ts';

const TOKEN_KEY = 'burrow.token';

/**
 * Browser mode's token arrives in the address's fragment (`#token=…`), which browsers never
 * send to a server. It is moved to this tab's session storage and wiped from the address bar,
 * so it survives a reload but not a copied link or the history.
 */
export function takeToken(
  location: Location,
  history: History,
  storage: Storage,
): string | undefined {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    storage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return storage.getItem(TOKEN_KEY) ?? undefined;
}

/** The Bridge of browser mode: each call is one POST to the page's own origin. */
export function createHttpBridge(token: string): Bridge {
  return {
    async invoke(name, ...args) {
      let response: Response;
      try {
        response = await fetch('/ipc/invoke', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ name, args }),
        });
      } catch {
        throw new BridgeCallError({
          code: 'BRIDGE_OFFLINE',
          message: 'Burrow is not running (the browser-mode server did not answer)',
        });
      }
      if (!response.ok) {
        throw new BridgeCallError({
          code: `BRIDGE_HTTP_${response.status}`,
          message: await response.text(),
        });
      }
      return settleReply((await response.json()) as IpcReply);
    },
  };
}
