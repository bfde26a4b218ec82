import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveUnder } from '../core/security/paths.ts';

/** Reads a file:// URL into a response: Electron's `net.fetch` in the app. */
export type FetchFile = (fileUrl: string) => Promise<Response>;

/**
 * The app scheme's handler: a request names a file under the built renderer's folder, and
 * nothing outside it (`..`, encoded or not, answers 404 without touching the disk).
 */
export function appSchemeHandler(
  rendererDir: string,
  fetchFile: FetchFile,
): (request: { url: string }) => Promise<Response> {
  const root = path.resolve(rendererDir);
  return async (request) => {
    const file = resolveUnder(root, new URL(request.url).pathname);
    if (file === undefined) return new Response('not found', { status: 404 });
    return fetchFile(pathToFileURL(file).toString());
  };
}
