import Store from 'electron-store';
import type { JsonStorage } from './core/ports';

/** The desktop app's settings: electron-store's JSON file in userData, behind the core's port. */
export function createElectronSettingsStorage(): JsonStorage {
  const store = new Store<{ settings?: unknown }>({ name: 'settings' });
  return {
    location: store.path,
    read: () => Promise.resolve(store.get('settings')),
    write: (value) => {
      store.set('settings', value);
      return Promise.resolve();
    },
  };
}
