import { contextBridge, ipcRenderer } from 'electron';
import {
  createEventFanout,
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  settleReply,
  type Bridge,
  type IpcReply,
} from '../shared/app/ipc/bridge.ts';
import type { IpcEvent } from '../shared/app/ipc/contract.ts';

/**
 * The renderer's only door to the app: one function to call, one to listen. No ipcRenderer, no
 * Node, no API key crosses contextIsolation; the main process checks every call again anyway.
 */
const events = createEventFanout();
ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, payload: IpcEvent) => events.deliver(payload));

const bridge: Bridge = {
  invoke: async (name, ...args) =>
    settleReply(await (ipcRenderer.invoke(IPC_INVOKE_CHANNEL, name, args) as Promise<IpcReply>)),
  on: events.on,
};

contextBridge.exposeInMainWorld('burrow', bridge);
