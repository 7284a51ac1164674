import { ipcMain, type BrowserWindow } from 'electron';
import { VERB_NAMES, eventChannel, verbChannel } from '../shared/contract';
import type { AppCore } from './core/app-core';
import { isTrustedSender } from './core/sender-policy';

/**
 * The Electron transport of the contract: one ipcMain handler per verb, each checking the sender
 * (our origin, main frame) before the core's router validates the payload; core events go to the
 * window's renderer.
 */
export function exposeContractOverIpc(core: AppCore, window: BrowserWindow, appOrigin: string): () => void {
  for (const verb of VERB_NAMES) {
    ipcMain.handle(verbChannel(verb), async (event, payload: unknown) => {
      const frame = event.senderFrame;
      const sender = {
        frameUrl: frame?.url,
        isMainFrame: frame !== null && frame === event.sender.mainFrame,
      };
      if (!isTrustedSender(sender, appOrigin)) {
        return { ok: false, error: { code: 'forbidden', message: 'This page may not use the app.' } };
      }
      return core.router.dispatch(verb, payload);
    });
  }
  const unsubscribe = core.events.subscribe((event, payload) => {
    if (!window.isDestroyed()) window.webContents.send(eventChannel(event), payload);
  });
  return () => {
    unsubscribe();
    for (const verb of VERB_NAMES) ipcMain.removeHandler(verbChannel(verb));
  };
}
