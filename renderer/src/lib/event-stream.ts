/**
 * Server-sent events read from a fetch response's body, as browser mode's event stream comes:
 * EventSource cannot send the page secret's header. Hands each event's `data` to `deliver` and
 * settles when the stream ends (rejects when it breaks or is aborted). Comments (the server's
 * heartbeat) and other fields are skipped.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  deliver: (data: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const events = buffer.split('\n\n');
    buffer = events.pop() ?? '';
    for (const event of events) {
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).replace(/^ /, ''));
      if (data.length > 0) deliver(data.join('\n'));
    }
  }
}
