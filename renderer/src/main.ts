import { mount } from 'svelte';
import type { Bridge } from '../../shared/ipc/bridge.ts';
import App from './App.svelte';
import './app.css';

declare global {
  interface Window {
    /** Set by Electron's preload; browser mode's HTTP bridge takes its place there. */
    burrow?: Bridge;
  }
}

const target = document.getElementById('app');
if (target) mount(App, { target, props: { bridge: window.burrow } });
