/**
 * The Content-Security-Policy of every renderer page, in Electron and in browser mode alike:
 * only the app's own scripts and styles, no inline script, no eval, no plugins, no framing, and
 * network access only back to where the page came from (browser mode's IPC-over-HTTP).
 */
const directives: ReadonlyArray<readonly [string, string]> = [
  ['default-src', "'none'"],
  ['script-src', "'self'"],
  ['style-src', "'self'"],
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['object-src', "'none'"],
  ['frame-ancestors', "'none'"],
];

const render = (list: typeof directives) => list.map((pair) => pair.join(' ')).join('; ');

/** For response headers. */
export const CONTENT_SECURITY_POLICY = render(directives);

/** For the page's own <meta> tag, where browsers ignore (and warn about) frame-ancestors. */
export const CONTENT_SECURITY_POLICY_META = render(
  directives.filter(([name]) => name !== 'frame-ancestors'),
);
