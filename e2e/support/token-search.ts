import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

/**
 * What an auditor would grep a renderer for: anything shaped like a token. The design keeps every
 * credential in main (DESIGN.md: "The renderer never sees a service token or a partner token"),
 * so none of these may turn up in what the page shows, keeps or is sent.
 */
const JWT_SHAPED = /eyJ[\w-]+\.[\w-]+\./g;
/** A token's name with a value after it, as JSON (`"access_token":"…"`) or a query (`access_token=…`). */
const NAMED_TOKEN = /\b(?:refresh_token|access_token|sdp_service_token)\b["']?\s*[:=]\s*["']?[\w.~+/-]{8,}/gi;

interface Partner {
  partner_id: string;
  partner_token?: string;
  webhook_secret?: string;
}
const partners = (
  JSON.parse(readFileSync('sandbox/partners.default.json', 'utf8')) as { partners: Partner[] }
).partners;
/** The built-in sandbox's partner tokens and webhook secrets (sandbox/partners.default.json). */
const SANDBOX_SECRETS = partners.flatMap((partner) =>
  [partner.partner_token, partner.webhook_secret].filter((secret): secret is string => Boolean(secret)),
);

/** Each token-like thing in `text`, shortened so a failure names it without printing it whole. */
export function tokenLikeIn(text: string): string[] {
  const shorten = (found: string) => `${found.slice(0, 24)}…`;
  return [
    ...[...text.matchAll(JWT_SHAPED)].map((m) => `JWT ${shorten(m[0])}`),
    ...[...text.matchAll(NAMED_TOKEN)].map((m) => `named token ${shorten(m[0])}`),
    ...SANDBOX_SECRETS.filter((secret) => text.includes(secret)).map(
      (secret) => `sandbox secret ${shorten(secret)}`,
    ),
  ];
}

/** Every place the renderer can keep or show something, as text, by name. */
export async function whatThePageKeeps(page: Page): Promise<Record<string, string>> {
  const kept = await page.evaluate(async () => {
    const storage = (store: Storage) =>
      JSON.stringify(
        Object.fromEntries(
          Array.from({ length: store.length }, (_, i) => store.key(i)!).map((k) => [k, store.getItem(k)]),
        ),
      );
    const request = <T>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    // Every record of every object store of every database of the origin.
    const databases: Record<string, Record<string, unknown[]>> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      databases[name] = {};
      for (const store of Array.from(db.objectStoreNames)) {
        databases[name][store] = await request(db.transaction(store).objectStore(store).getAll());
      }
      db.close();
    }
    return {
      html: document.documentElement.outerHTML,
      localStorage: storage(localStorage),
      sessionStorage: storage(sessionStorage),
      indexedDB: JSON.stringify(databases),
    };
  });
  const cookies = await page.context().cookies(page.url());
  return { ...kept, cookies: JSON.stringify(cookies.map(({ name, value }) => ({ name, value }))) };
}

/**
 * Every text of every WebSocket frame the page receives and sends from now on (browser mode's
 * contract socket): answers to every verb and every event. Register before the page loads.
 */
export function watchSocketFrames(page: Page): { received: string[]; sent: string[] } {
  const frames = { received: [] as string[], sent: [] as string[] };
  const text = (payload: string | Buffer) =>
    typeof payload === 'string' ? payload : payload.toString('latin1');
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => frames.received.push(text(payload)));
    socket.on('framesent', ({ payload }) => {
      // Audio chunks are binary; only the text frames (calls) can carry a token.
      if (typeof payload === 'string') frames.sent.push(payload);
    });
  });
  return frames;
}
