/**
 * How browser mode's page proves it is the app's own window before the contract socket carries
 * anything (src/main/browser-host/page-capability.ts holds the secrets).
 *
 * The launch address carries a one-time key in its fragment (`/#key=…`), which the browser never
 * sends anywhere: the page reads it, takes it out of the address bar and presents it as the first
 * frame of the socket. The host answers with a page token for the next connection (a reload, a
 * reconnect), the page keeps it in sessionStorage (its own tab and origin only) and confirms; from
 * then on the key, and each token once it has been replaced, opens nothing. No cookie is involved:
 * cookies ignore ports, so every other server on 127.0.0.1 would receive one.
 */

/** The launch address's fragment parameter that carries the key. */
export const LAUNCH_KEY_PARAMETER = 'key';

/** First frame from the page: the launch key, or the page token it was last given. */
export interface PageHello {
  hello: string;
}
/** The host's answer to a good hello: the credential for the page's next connection. */
export interface PageWelcome {
  welcome: { pageToken: string };
}
/** The page kept the new token (sessionStorage): the credential it presented is spent now. */
export interface PageConfirm {
  confirm: string;
}

/**
 * Close codes (RFC 6455 leaves 4000–4999 to applications). `refused`: the credential is wrong or
 * spent; reconnecting cannot help, only the launch address browser mode printed can. `timedOut`:
 * no hello and confirm within the host's time.
 */
export const HANDSHAKE_CLOSE = { refused: 4403, timedOut: 4408 } as const;
