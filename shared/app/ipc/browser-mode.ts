// What browser mode's page and its loopback server agree on, beside the contract's calls.

/** The largest call browser mode's loopback server reads: one call's JSON, arguments and all. */
export const MAX_HTTP_CALL_BYTES = 1 << 20;

/**
 * The header in which a browser-mode tab sends its page secret, on every call and on its event
 * stream: the session's credential, which only the page holds (a cookie would reach every port).
 */
export const PAGE_SECRET_HEADER = 'burrow-page-secret';
