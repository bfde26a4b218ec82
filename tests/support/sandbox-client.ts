/**
 * The smallest client the sandbox tests need: every request carries the API key, the version
 * header and (with a body) the JSON content type, so that a test only states what it varies.
 */
// `any` by contract: tests read whatever JSON the reply holds, and assert on it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiReply = { status: number; headers: Headers; body: any };

export function apiCaller(
  baseUrl: string,
  apiKey: string,
  extraHeaders?: Record<string, string>,
): (method: string, path: string, body?: unknown) => Promise<ApiReply> {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, body) => {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${apiKey}`,
      'Service-Version': '2',
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...extraHeaders,
    };
    const url = /^https?:\/\//.test(path) ? path : `${base}${path}`;
    const response = await fetch(url, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? null : JSON.parse(text),
    };
  };
}
