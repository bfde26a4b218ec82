import { mount, unmount } from 'svelte';
import type { Bridge } from '../../shared/app/ipc/bridge.ts';
import App from './App.svelte';
import { createHttpBridge, exchangeToken } from './lib/http-bridge.ts';
import './app.css';

declare global {
  interface Window {
    /** Set by Electron's preload; in browser mode the HTTP bridge takes its place. */
    burrow?: Bridge;
  }
}

async function findBridge(
  onSignedOut: (message: string) => void,
): Promise<{ bridge?: Bridge; failure?: string }> {
  if (window.burrow) return { bridge: window.burrow };
  if (window.location.protocol !== 'http:') return {};
  try {
    await exchangeToken(window.location, window.history);
    return { bridge: createHttpBridge(onSignedOut) };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

const target = document.getElementById('app');
if (target) {
  let shown: ReturnType<typeof mount> | undefined;
  // A tab signed out can do nothing: it says so in place of screens that would look empty.
  const signedOut = (failure: string) => {
    if (shown) void unmount(shown);
    shown = mount(App, { target, props: { failure } });
  };
  shown = mount(App, { target, props: await findBridge(signedOut) });
}
