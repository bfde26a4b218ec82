/** The session monitor: polls each profile's tunnel sessions and tells what changed. */
export * from './cadence.ts';
export * from './monitor.ts';
export * from './reconcile.ts';
