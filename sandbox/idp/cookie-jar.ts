/**
 * Just enough of a browser's cookie store to walk an OpenID Connect sign-in with fetch (which keeps
 * no cookies): cookies are kept per origin and path, sent to matching paths, and dropped when the
 * server expires them. oidc-provider scopes its interaction and resume cookies to their paths, so
 * path matching is what lets the right one come back.
 */

interface StoredCookie {
  origin: string;
  name: string;
  value: string;
  path: string;
}

/** RFC 6265 5.1.4 path-match. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** RFC 6265 5.1.4 default-path: the request path up to, not including, its last slash. */
function defaultPath(url: URL): string {
  const last = url.pathname.lastIndexOf('/');
  return last <= 0 ? '/' : url.pathname.slice(0, last);
}

function isExpired(attributes: Map<string, string>): boolean {
  const maxAge = attributes.get('max-age');
  if (maxAge !== undefined) return Number(maxAge) <= 0;
  const expires = attributes.get('expires');
  return expires !== undefined && Date.parse(expires) <= Date.now();
}

export class CookieJar {
  #cookies: StoredCookie[] = [];

  /** Takes the Set-Cookie headers of a response to `url`. */
  store(url: URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...rest] = header.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const attributes = new Map<string, string>();
      for (const attribute of rest) {
        const [key = '', ...val] = attribute.split('=');
        attributes.set(key.trim().toLowerCase(), val.join('=').trim());
      }
      const path = attributes.get('path')?.startsWith('/') ? attributes.get('path')! : defaultPath(url);
      const cookie: StoredCookie = { origin: url.origin, name, value, path };
      this.#cookies = this.#cookies.filter(
        (c) => !(c.origin === cookie.origin && c.name === name && c.path === path),
      );
      if (!isExpired(attributes)) this.#cookies.push(cookie);
    }
  }

  /** The Cookie header for a request to `url`, or undefined when no cookie applies. */
  header(url: URL): string | undefined {
    const matching = this.#cookies
      .filter((c) => c.origin === url.origin && pathMatches(url.pathname, c.path))
      // RFC 6265 5.4: longer paths first.
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }
}
