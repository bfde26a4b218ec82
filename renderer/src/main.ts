import { mount } from 'svelte';
import type { Bridge } from '../../shared/ipc/bridge.ts';
import App from './App.svelte';
import { createHttpBridge, takeToken } from './lib/http-bridge.ts';
import './app.css';

declare global {
  interface Window {
    /** Set by Electron's preload; in browser mode the HTTP bridge takes its place. */
    burrow?: Bridge;
  }
}

function findBridge(): Bridge | undefined {
  if (window.burrow) return window.burrow;
  const token = takeToken(window.location, window.history, window.sessionStorage);
  return token ? createHttpBridge(token) : undefined;
}

const target = document.getElementById('app');
if (target) mount(App, { target, props: { bridge: findBridge() } });
