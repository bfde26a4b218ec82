import { describe, expect, it } from 'vitest';
import { NetworkError, RequestError } from '../../../../core/api/errors.ts';
import { Transport } from '../../../../core/api/transport.ts';

describe('Transport', () => {
  it('tells an error raised before sending from a network failure', async () => {
    // The client refuses such a key when it is made; the transport below it must still not
    // call undici's refusal of the header "could not reach".
    const transport = new Transport('http://127.0.0.1:9', 'key\n');
    try {
      const error = await transport
        .send({ method: 'GET', url: new URL('http://127.0.0.1:9/x'), operation: 'x.get' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect(error).not.toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: 'UND_ERR_INVALID_ARG' });
      expect((error as Error).message).toBe(
        'x.get: the request could not be sent (UND_ERR_INVALID_ARG)',
      );
    } finally {
      await transport.close();
    }
  });
});
