/** The API's records and list pages as the resource screens' tests script them. */

export const URI = 'http://127.0.0.1:4040';

/** A resource under `path` (`ip_policies`, `edges/https`, …) with the common fields. */
export const record = (id: string, path: string, extra: Record<string, unknown> = {}) => ({
  id,
  uri: `${URI}/${path}/${id}`,
  created_at: '2026-01-01T00:00:00Z',
  description: '',
  metadata: '',
  ...extra,
});

/** The one and last page of a list, its items under `key`. */
export const listPage = (key: string, items: unknown[] = []) => ({
  [key]: items,
  uri: `${URI}/x`,
  next_page_uri: null,
});

/** A scripted answer to a list call: always that one page. */
export const listOf =
  (key: string, items: unknown[] = []) =>
  () =>
    listPage(key, items);

/** Each test starts at the first screen with nothing remembered. */
export function freshWindow(): void {
  window.location.hash = '';
  localStorage.clear();
}
