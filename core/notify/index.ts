/** The notification policy (events and preferences in, notifications out) and its place in the app. */
export * from './notifier.ts';
export * from './policy.ts';
