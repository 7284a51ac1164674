import { walkBrowser } from '../../../../../sandbox/idp/headless-sign-in';

/**
 * The system browser for tests of a standard partner's sign-in: an openExternal port that walks
 * the sandbox IdP with fetch the way a person would (follows redirects, keeps cookies, fills and
 * posts the dev login form) until the browser lands on the app's loopback redirect. The same walk
 * as sandbox/idp/headless-sign-in.ts, driven by the URL the app opens.
 */

export interface HeadlessBrowser {
  openExternal(url: string): Promise<void>;
  /** Every URL the app asked to open. */
  readonly opened: string[];
  /** Every URL the browser was sent to on the way (they carry authorization codes). */
  readonly visited: string[];
  /** Resolves when the last walk reached the loopback redirect; rejects with where it stopped. */
  lastWalk(): Promise<void>;
}

export function headlessBrowser(login: { username: string; name?: string }): HeadlessBrowser {
  const opened: string[] = [];
  const visited: string[] = [];
  let walk: Promise<void> = Promise.resolve();
  return {
    opened,
    visited,
    lastWalk: () => walk,
    async openExternal(url) {
      opened.push(url);
      // Like shell.openExternal: resolves once the browser has the URL, not when the user is done.
      walk = walkToRedirect(new URL(url), login, visited);
      walk.catch(() => undefined);
    },
  };
}

/** A browser that opens the page and then nobody signs in (for cancel and timeout). */
export function idleBrowser(): HeadlessBrowser {
  const opened: string[] = [];
  return {
    opened,
    visited: [],
    lastWalk: async () => {},
    openExternal: async (url) => void opened.push(url),
  };
}

/** The walk of the sandbox's own headless sign-in, driven by the URL the app asked to open. */
function walkToRedirect(
  start: URL,
  login: { username: string; name?: string },
  visited: string[],
): Promise<void> {
  return walkBrowser(start, new URL(start.searchParams.get('redirect_uri') ?? ''), login, visited);
}
