import { contextBridge, ipcRenderer } from 'electron';
import {
  IPC_INVOKE_CHANNEL,
  settleReply,
  type Bridge,
  type IpcReply,
} from '../shared/ipc/bridge.ts';

/**
 * The renderer's only door to the app: one function, one channel. No ipcRenderer, no Node, no
 * API key crosses contextIsolation; the main process checks every call again anyway.
 */
const bridge: Bridge = {
  invoke: async (name, ...args) =>
    settleReply(await (ipcRenderer.invoke(IPC_INVOKE_CHANNEL, name, args) as Promise<IpcReply>)),
};

contextBridge.exposeInMainWorld('burrow', bridge);
