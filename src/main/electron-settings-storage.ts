import { app } from 'electron';
import Store from 'electron-store';
import { join } from 'node:path';
import type { JsonStorage, Logger } from './core/ports';
import { checkSettingsFile } from './core/startup/settings-file-check';

/** electron-store's file name for the store below (`name` plus its `.json`), in userData. */
const SETTINGS_NAME = 'settings';

/**
 * The desktop app's settings: electron-store's JSON file in userData, behind the core's port.
 * electron-store parses the file in its constructor and throws on a damaged one
 * (`clearInvalidConfig` is off; on, it would write defaults over the file), so the file is checked
 * first, the way browser mode checks its own: a damaged one is set aside and the app starts from
 * defaults, with notices that say so in the window. Call after the app is ready (userData is final).
 */
export async function openElectronSettingsStorage(
  log: Logger,
): Promise<{ storage: JsonStorage; notices: string[] }> {
  const notices = await checkSettingsFile(join(app.getPath('userData'), `${SETTINGS_NAME}.json`), log);
  const store = new Store<{ settings?: unknown }>({ name: SETTINGS_NAME });
  const storage: JsonStorage = {
    location: store.path,
    read: () => Promise.resolve(store.get('settings')),
    write: (value) => {
      store.set('settings', value);
      return Promise.resolve();
    },
  };
  return { storage, notices };
}
