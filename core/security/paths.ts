import path from 'node:path';

/**
 * The file a URL path names inside `root` (an absolute, resolved directory), or undefined when
 * the path cannot be decoded or leads outside `root` (`..`, encoded or not). `root` itself is
 * a directory, never a file to serve, so it counts as outside.
 */
export function resolveUnder(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const file = path.resolve(root, `.${decoded}`);
  return file.startsWith(root + path.sep) ? file : undefined;
}
