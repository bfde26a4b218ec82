import type { Connection } from 'ssh2';

/**
 * Resolves once the client has answered a keepalive sent now: by then it has read everything
 * sent before it. OpenSSH writes a channel's stderr out one turn of its loop after reading it, and
 * exits the moment a forward it needs is refused, so a refusal sent in the same read as its reason
 * loses the reason; sent after a round trip, it comes a turn later, once the reason is out. A
 * delay instead only made that likely (a client starved for 50 ms lost it, beside a busy suite).
 *
 * ssh2 offers no public way to hear a global request's reply on the server side: this reaches
 * into its protocol (ssh2 1.17), which its own keepalives use too. Their replies come in the
 * order the requests went, so each ping, theirs or ours, takes its place in one queue.
 */
export type RoundTrip = () => Promise<void>;

type Protocol = {
  ping(): void;
  _handlers: Record<string, ((...args: unknown[]) => void) | undefined>;
};

export function roundTrips(client: Connection): RoundTrip {
  const protocol = (client as unknown as { _protocol?: Protocol })._protocol;
  if (!protocol || typeof protocol.ping !== 'function' || !protocol._handlers)
    throw new Error('ssh2 changed: the gateway cannot hear keepalive replies');
  const waiting: ((() => void) | undefined)[] = [];
  const ping = protocol.ping.bind(protocol);
  protocol.ping = () => {
    waiting.push(undefined);
    ping();
  };
  // OpenSSH answers an unknown global request with a failure; either reply ends the round trip.
  const replied = () => waiting.shift()?.();
  protocol._handlers['REQUEST_SUCCESS'] = replied;
  protocol._handlers['REQUEST_FAILURE'] = replied;
  return () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      ping();
    });
}
