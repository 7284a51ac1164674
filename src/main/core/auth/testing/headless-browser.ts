import { CookieJar } from '../../../../../sandbox/idp/cookie-jar';

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

const MAX_STEPS = 12;

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

async function walkToRedirect(
  start: URL,
  login: { username: string; name?: string },
  visited: string[],
): Promise<void> {
  const redirectUri = new URL(start.searchParams.get('redirect_uri') ?? '');
  const jar = new CookieJar();
  let url = start;
  let init: RequestInit = { method: 'GET' };
  for (let step = 0; step < MAX_STEPS; step += 1) {
    visited.push(url.href);
    if (url.origin === redirectUri.origin && url.pathname === redirectUri.pathname) {
      await (await fetch(url)).arrayBuffer();
      return;
    }
    const headers = new Headers(init.headers);
    const cookie = jar.header(url);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    jar.store(url, response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.arrayBuffer();
      url = new URL(location, url);
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const action = /<input[^>]*\bname="username"/i.test(html)
      ? /<form[^>]*\baction="([^"]*)"/i.exec(html)?.[1]
      : undefined;
    if (!response.ok || action === undefined) {
      throw new Error(`the sign-in page stopped at ${url.pathname} with HTTP ${response.status}`);
    }
    url = new URL(action.replace(/&amp;/g, '&'), url);
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: login.username, name: login.name ?? '' }).toString(),
    };
  }
  throw new Error(`the sign-in did not reach the app within ${MAX_STEPS} steps`);
}
