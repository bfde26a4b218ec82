/** The notification policy: monitor events and preferences in, notifications out. */
export * from './policy.ts';
