/*
 * Every `burrow` command, one line each: the export's name is the command's and its file's.
 * `burrow --help` lists them in this module's order, which is by name. A command's file imports
 * what its `run` needs inside `run` (`await import(…)`): the built command then reads only the
 * declarations to start, and `burrow --help` takes under 3× `node -e 0` (`npm run bench:cli`).
 */
export { default as agents } from './agents.ts';
export { default as apply } from './apply.ts';
export { default as completion } from './completion.ts';
export { default as drift } from './drift.ts';
export { default as export } from './export.ts';
export { default as plan } from './plan.ts';
export { default as profiles } from './profiles.ts';
export { default as restart } from './restart.ts';
export { default as rollout } from './rollout.ts';
export { default as sessions } from './sessions.ts';
export { default as ssh } from './ssh.ts';
export { default as stop } from './stop.ts';
export { default as update } from './update.ts';
