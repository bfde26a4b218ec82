import type { Dispatcher } from 'undici';

/**
 * The body's chunks, no more than `maxBytes` of them: a body declared or found larger throws
 * `tooLarge()` and its connection is dropped, the rest never read.
 */
export async function* bodyUpTo(
  response: Dispatcher.ResponseData,
  maxBytes: number,
  tooLarge: () => Error,
): AsyncGenerator<Buffer> {
  try {
    if (Number(response.headers['content-length']) > maxBytes) throw tooLarge();
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      yield chunk;
    }
  } finally {
    response.body.destroy();
  }
}

/** The whole body as UTF-8 text, read through `bodyUpTo`: no more than `maxBytes` of it. */
export async function textUpTo(
  response: Dispatcher.ResponseData,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of bodyUpTo(response, maxBytes, tooLarge)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
