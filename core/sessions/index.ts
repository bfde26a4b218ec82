/** Session commands with the spec's rules checked first: see actions.ts. */
export * from './actions.ts';
