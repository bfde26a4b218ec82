import { mount } from 'svelte';
import type { Bridge } from '../../shared/ipc/bridge.ts';
import App from './App.svelte';
import { createHttpBridge, exchangeToken } from './lib/http-bridge.ts';
import './app.css';

declare global {
  interface Window {
    /** Set by Electron's preload; in browser mode the HTTP bridge takes its place. */
    burrow?: Bridge;
  }
}

async function findBridge(): Promise<{ bridge?: Bridge; failure?: string }> {
  if (window.burrow) return { bridge: window.burrow };
  if (window.location.protocol !== 'http:') return {};
  try {
    await exchangeToken(window.location, window.history);
    return { bridge: createHttpBridge() };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

const target = document.getElementById('app');
if (target) {
  const found = await findBridge();
  mount(App, { target, props: found });
}
