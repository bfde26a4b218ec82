import { expect, it } from 'vitest';
import { readEventStream } from '../../../renderer/src/lib/event-stream.ts';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

it('hands on each event whole, however the chunks cut it, and skips comments', async () => {
  const data: string[] = [];
  const euro = new TextEncoder().encode('€');
  const split = new ReadableStream<Uint8Array>({
    start(controller) {
      const encoder = new TextEncoder();
      controller.enqueue(encoder.encode(': burrow\n\ndata: {"a":"'));
      // A character cut between two chunks.
      controller.enqueue(euro.slice(0, 1));
      controller.enqueue(euro.slice(1));
      controller.enqueue(encoder.encode('"}\n\n: ♥\n\ndata: one\ndata: two\n\ndata: cut'));
      controller.close();
    },
  });
  await readEventStream(split, (d) => data.push(d));
  expect(data).toEqual(['{"a":"€"}', 'one\ntwo']);
});

it('takes data without the space after the colon, and ignores other fields', async () => {
  const data: string[] = [];
  await readEventStream(body(['retry: 1000\nevent: x\ndata:{}\n\n']), (d) => data.push(d));
  expect(data).toEqual(['{}']);
});
