import { register } from 'node:module';

/*
 * Loaded with `--import` before the built main process: `electron` resolves to the stand-in
 * beside this file, every other module as Node resolves it (tsx, imported first, compiles the
 * stand-in's TypeScript).
 */
const standIn = new URL('./electron.ts', import.meta.url).href;
const hook = `export async function resolve(specifier, context, next) {
  return next(specifier === 'electron' ? ${JSON.stringify(standIn)} : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
