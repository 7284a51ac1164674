import {
  ipcMain,
  type BrowserWindow,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
  type WebContents,
  type WebContentsDidStartNavigationEventParams,
} from 'electron';
import { CHUNK_CHANNEL, VERB_NAMES, eventChannel, verbChannel } from '../shared/contract';
import type { AppCore } from './core/app-core';
import { isTrustedSender } from './core/sender-policy';

/**
 * The Electron transport of the contract: one ipcMain handler per verb, each checking the sender
 * (our origin, main frame) before the core's router validates the payload; audio chunks on their
 * one-way channel, sender-checked the same way; core events go to the window's renderer.
 */
export function exposeContractOverIpc(core: AppCore, window: BrowserWindow, appOrigin: string): () => void {
  const senderOf = (event: IpcMainEvent | IpcMainInvokeEvent) => ({
    frameUrl: event.senderFrame?.url,
    isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
  });
  for (const verb of VERB_NAMES) {
    ipcMain.handle(verbChannel(verb), async (event, payload: unknown) => {
      if (!isTrustedSender(senderOf(event), appOrigin)) {
        return { ok: false, error: { code: 'forbidden', message: 'This page may not use the app.' } };
      }
      return core.router.dispatch(verb, payload);
    });
  }
  const onChunk = (event: IpcMainEvent, message: unknown) => {
    if (isTrustedSender(senderOf(event), appOrigin)) core.acceptChunk(message);
  };
  ipcMain.on(CHUNK_CHANNEL, onChunk);
  const unsubscribe = core.events.subscribe((event, payload) => {
    if (!window.isDestroyed()) window.webContents.send(eventChannel(event), payload);
  });
  const unwatch = watchRendererDeparture(window.webContents, () => core.rendererDetached());
  return () => {
    unwatch();
    unsubscribe();
    ipcMain.removeListener(CHUNK_CHANNEL, onChunk);
    for (const verb of VERB_NAMES) ipcMain.removeHandler(verbChannel(verb));
  };
}

/**
 * Tells `onGone` when the page that captures audio goes away: a main-frame navigation to another
 * document starts (a reload: View ▸ Reload, Ctrl+R, or the shell reloading after a crash), the
 * renderer process is gone (crash, killed, OOM), or the webContents is destroyed. The visit keeps
 * recording; the next page rejoins it with recorder.attach. A navigation the security handlers
 * then refuse also reports here; that costs nothing (the page's next chunk re-arms the stall
 * watch as usual).
 */
function watchRendererDeparture(contents: WebContents, onGone: () => void): () => void {
  const onNavigation = (details: Electron.Event<WebContentsDidStartNavigationEventParams>) => {
    if (details.isMainFrame && !details.isSameDocument) onGone();
  };
  contents.on('did-start-navigation', onNavigation);
  contents.on('render-process-gone', onGone);
  contents.on('destroyed', onGone);
  return () => {
    if (contents.isDestroyed()) return;
    contents.off('did-start-navigation', onNavigation);
    contents.off('render-process-gone', onGone);
    contents.off('destroyed', onGone);
  };
}
