/** Session commands with the spec's rules checked first: see actions.ts. */
export * from './actions.ts';
/** The monitor, notifications, actions and tray put together for the app: see service.ts. */
export * from './service.ts';
