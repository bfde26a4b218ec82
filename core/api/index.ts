/** The management API client of the main process: see client.ts for the whole picture. */
export * from './backoff.ts';
export * from './client.ts';
export * from './clock.ts';
export * from './errors.ts';
export * from './governor.ts';
export * from './origin.ts';
export * from './paginate.ts';
export * from './retry.ts';
export * from './transport.ts';
export * from './types.ts';
