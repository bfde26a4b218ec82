import { render } from '@testing-library/svelte';
import { userEvent, page } from 'vitest/browser';
import App from '../../../renderer/src/App.svelte';
import { listOf } from './records.ts';
import { scriptedBridge, type ScriptedBridge } from './scripted-bridge.ts';

/** The empty credentials screen, where New and Create make `created`: its token is now shown. */
export async function createCredential(created: object): Promise<ScriptedBridge> {
  window.location.hash = '#/credentials';
  const bridge = scriptedBridge({
    'api.credentials.list': listOf('credentials'),
    'api.credentials.create': () => created,
  });
  render(App, { bridge });
  await userEvent.click(page.getByRole('button', { name: 'New tunnel credential' }));
  await userEvent.click(page.getByRole('button', { name: 'Create tunnel credential' }));
  return bridge;
}
