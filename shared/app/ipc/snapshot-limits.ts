import { MAX_HTTP_CALL_BYTES } from './browser-mode.ts';

// Apart from snapshots.ts, whose schemas would come into the renderer's bundle with them.

/** The longest snapshot text `snapshots.open` takes (the app's shell carries it whole). */
export const MAX_SNAPSHOT_TEXT = 16_000_000;

/**
 * The most a snapshot may weigh as it travels in browser mode, escaped inside the call's JSON:
 * what the server reads of one call, with room left for the rest of the call.
 */
export const MAX_BROWSER_SNAPSHOT_BYTES = MAX_HTTP_CALL_BYTES - 48 * 1024;
