import { LAUNCH_KEY_PARAMETER } from '../../shared/browser-mode-handshake';

/**
 * What browser mode's page presents to open the contract socket (src/shared/browser-mode-handshake.ts):
 * the launch key from the address's fragment at first, then each page token the host gives it.
 * Kept in sessionStorage: this tab and this origin only (no other port's page can read it, no
 * request carries it), and it survives a reload, so a reloaded window rejoins its visit.
 */
export interface PageCredential {
  current(): string | undefined;
  /** The host gave the page its next token: from now on that is what it presents. */
  replace(pageToken: string): void;
  /** Called when a new launch key arrives in the address (a relaunch opened in this tab). */
  onNewKey(listener: () => void): void;
}

const STORAGE_KEY = 'ambient-scribe.page-credential';

export function takePageCredential(page: Window = window): PageCredential {
  const storage = page.sessionStorage;
  const listeners = new Set<() => void>();
  /** Moves a key from the address into storage, and out of the address bar and its history. */
  const takeKeyFromAddress = (): boolean => {
    const key = new URLSearchParams(page.location.hash.slice(1)).get(LAUNCH_KEY_PARAMETER);
    if (!key) return false;
    storage.setItem(STORAGE_KEY, key);
    page.history.replaceState(page.history.state, '', page.location.pathname + page.location.search);
    return true;
  };
  takeKeyFromAddress();
  // The address of a new launch opened in this tab on the same port changes only the fragment,
  // which does not load the page again.
  page.addEventListener('hashchange', () => {
    if (takeKeyFromAddress()) listeners.forEach((listener) => listener());
  });
  return {
    current: () => storage.getItem(STORAGE_KEY) ?? undefined,
    replace: (pageToken) => storage.setItem(STORAGE_KEY, pageToken),
    onNewKey: (listener) => void listeners.add(listener),
  };
}
