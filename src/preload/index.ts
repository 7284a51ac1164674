/**
 * The preload exposes exactly the contract's verbs and events (Electron security checklist,
 * "Do not expose Electron APIs to untrusted web content"). It runs sandboxed, so it imports only
 * `electron` and the dependency-free names module, bundled into one CommonJS file.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { PreloadBridge } from '../shared/contract/bridge';
import {
  CHUNK_CHANNEL,
  EVENT_NAMES,
  VERB_NAMES,
  eventChannel,
  isEventName,
  verbChannel,
  type VerbName,
} from '../shared/contract/names';

const verbs = Object.fromEntries(
  VERB_NAMES.map((verb) => [verb, (payload?: unknown) => ipcRenderer.invoke(verbChannel(verb), payload)]),
) as PreloadBridge['verbs'] & Record<VerbName, unknown>;

const bridge: PreloadBridge = {
  verbs: Object.freeze(verbs),
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`Unknown event; known events: ${EVENT_NAMES.join(', ')}`);
    const channel = eventChannel(event);
    // Strip the IpcRendererEvent: it carries `sender`, which must not reach the page.
    const handler = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, handler);
    return () => {
      ipcRenderer.removeListener(channel, handler);
    };
  },
  sendChunk(message) {
    // Fire-and-forget: ten chunks a second need no reply. Main checks the sender and the bytes.
    ipcRenderer.send(CHUNK_CHANNEL, message);
  },
};

contextBridge.exposeInMainWorld('scribe', bridge);
