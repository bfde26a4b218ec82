/**
 * `npm run web`: Burrow in a browser tab, for machines where Electron cannot run (WSL, remote
 * dev boxes, headless Linux). Prints the address to open; its token signs one browser in, once.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createBurrow } from '../core/burrow.ts';
import { defaultDataDir } from '../core/paths.ts';
import { osKeychain } from '../core/profiles/keychain.ts';
import { UPDATE_SETTLE_MS } from '../core/sessions/actions.ts';
import { setAsideDamagedSettings } from '../core/settings/damaged.ts';
import { openConfStore } from '../core/store.ts';
import { startEmbeddedSandbox } from '../sandbox/embedded.ts';
import { parseRateLimit } from '../sandbox/http/rate-limit.ts';
import { startWebServer } from './server.ts';

const usage = 'usage: npm run web -- [--port N] [--data-dir DIR] [--sandbox-rate-limit 120/60|off]';

let port: number;
let dataDir: string;
let sandboxRateLimit: ReturnType<typeof parseRateLimit> | undefined;
/** For tests only (the setting's floor is 5 s): the end-to-end suite waits on polls a second apart. */
let pollIntervalMs: number | undefined;
/** For tests only: a longer wait before an update's restart, which a loaded window still sees. */
let updateSettleMs: number | undefined;

/** A test variable's whole number of ms, at least `least`; unset is undefined. */
function testMs(name: string, least: number): number | undefined {
  const text = process.env[name];
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!(Number.isInteger(ms) && ms >= least))
    throw new Error(`bad ${name} ${text}: a whole number of ms, at least ${least}`);
  return ms;
}
try {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'sandbox-rate-limit': { type: 'string' },
    },
    strict: true,
  });
  port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`bad --port ${values.port}`);
  dataDir = values['data-dir'] ?? defaultDataDir();
  const limit = values['sandbox-rate-limit'];
  sandboxRateLimit = limit === undefined ? undefined : parseRateLimit(limit);
  pollIntervalMs = testMs('BURROW_TEST_POLL_INTERVAL_MS', 1);
  updateSettleMs = testMs('BURROW_TEST_UPDATE_SETTLE_MS', UPDATE_SETTLE_MS);
} catch (error) {
  console.error(`burrow web: ${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
};
let damagedSettings: ReturnType<typeof setAsideDamagedSettings>;
try {
  damagedSettings = setAsideDamagedSettings(dataDir);
} catch (error) {
  console.error(`burrow web: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (damagedSettings) console.error(`burrow web: ${damagedSettings.message}`);
const burrow = await createBurrow({
  version,
  shell: 'browser',
  dataDir,
  store: await openConfStore(dataDir),
  damagedSettings,
  secrets: await osKeychain(),
  pollIntervalMs,
  updateSettleMs,
  startLocalSandbox: async (options) => {
    const sandbox = await startEmbeddedSandbox({ ...options, rateLimit: sandboxRateLimit });
    if (sandboxRateLimit === undefined) return sandbox;
    // The app's own window keeps to the sandbox's; a window never filled stands for none.
    const { requests, windowSeconds } =
      sandboxRateLimit === 'off'
        ? { requests: Number.MAX_SAFE_INTEGER, windowSeconds: 60 }
        : sandboxRateLimit;
    return {
      url: sandbox.url,
      rateLimit: { requests, windowMs: windowSeconds * 1000 },
      close: () => sandbox.close(),
    };
  },
});
const server = await startWebServer({
  rendererDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
  implementation: burrow.implementation,
  events: burrow.events,
  port,
  announce: (url) =>
    console.log(`A tab asks to sign in, and every address printed before is used up. Open ${url}`),
});
console.log(`Burrow is running in browser mode. Open ${server.url}`);
console.log('Each address signs one browser in, once; a reload keeps it signed in.');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([server.close(), burrow.close()]).then(() => process.exit(0));
  });
}
