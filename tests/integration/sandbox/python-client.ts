/**
 * Requests as the official Python client (ngrok-api-python 0.17, on `requests`) writes them, byte
 * for byte but for the version header, which the spec names `Service-Version`. Its rules: the
 * members of a call's payload that are None are left out (at the top only), an empty payload is
 * no body at all (`Content-Length: 0`, no `Content-Type`), and a body is Python's `json.dumps`:
 * `", "` and `": "` between items, every non-ASCII character escaped.
 */
import { request } from 'node:http';
import type { ApiReply } from '../../support/sandbox-client.ts';

/** A string as `json.dumps` writes it: ASCII only, UTF-16 units escaped one by one. */
const pyString = (text: string) =>
  JSON.stringify(text).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** `json.dumps(value)`, for the JSON values a payload holds. */
export function pyJson(value: unknown): string {
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, member]) => `${pyString(key)}: ${pyJson(member)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** A caller of `base` with `apiKey` that sends a payload as the Python client does. */
export function pythonClient(base: string, apiKey: string) {
  return (method: string, path: string, payload?: Record<string, unknown>): Promise<ApiReply> => {
    const members = Object.entries(payload ?? {}).filter(([, v]) => v !== null && v !== undefined);
    const body = members.length > 0 ? pyJson(Object.fromEntries(members)) : '';
    const url = new URL(`${base}${path}`);
    const headers: [string, string][] = [
      ['Host', url.host],
      ['User-Agent', 'ngrok-api-python/0.17.0/3.11.2'],
      ['Accept-Encoding', 'gzip, deflate'],
      ['Accept', '*/*'],
      ['Connection', 'keep-alive'],
      ['Service-Version', '2'],
      ['authorization', `Bearer ${apiKey}`],
      // `requests` frames a POST, PUT or PATCH without a body with a length of 0.
      ['Content-Length', String(Buffer.byteLength(body))],
      ...(body === '' ? [] : [['Content-Type', 'application/json'] as [string, string]]),
    ];
    return new Promise((resolve, reject) => {
      const sent = request(url, { method, headers: headers.flat() }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: new Headers(
              Object.entries(response.headers).map(([k, v]) => [k, String(v)] as [string, string]),
            ),
            body: text === '' ? null : JSON.parse(text),
          }),
        );
      });
      sent.on('error', reject);
      sent.end(body);
    });
  };
}
