import type { Page } from '@playwright/test';

export interface PageCallResult {
  ok: boolean;
  /** The refusal's sentence. */
  message?: string;
}

/**
 * Calls contract verbs as anyone at the window could, past what the window shows (DevTools in
 * browser mode's tab): a socket of the page's own, opened with the credential the page keeps,
 * exactly as a reload opens one. The next credential is kept for the page, so it reconnects after.
 * Done inside the page, not from Node with page-client.ts's openAsPage: from Node, the page's own
 * reconnect raced the hand-over of the credential and the reloaded page was left without the lock
 * screen the spec waits for (tried in session 21).
 */
export function callAsThePage(
  page: Page,
  calls: [verb: string, payload?: unknown][],
): Promise<PageCallResult[]> {
  return page.evaluate(async (calls) => {
    const KEY = 'ambient-scribe.page-credential';
    const socket = new WebSocket(`${location.origin.replace('http', 'ws')}/contract`);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error('the page could not open a socket'));
    });
    const nextMessage = () =>
      new Promise<Record<string, unknown>>((resolve) =>
        socket.addEventListener('message', (message) => resolve(JSON.parse(String(message.data))), {
          once: true,
        }),
      );
    socket.send(JSON.stringify({ hello: sessionStorage.getItem(KEY) }));
    const { welcome } = (await nextMessage()) as { welcome?: { pageToken: string } };
    if (!welcome) throw new Error('the host did not welcome the page’s credential');
    sessionStorage.setItem(KEY, welcome.pageToken);
    socket.send(JSON.stringify({ confirm: welcome.pageToken }));
    const results: { ok: boolean; message?: string }[] = [];
    for (const [index, [verb, payload]] of calls.entries()) {
      const id = 10_000 + index;
      const answer = new Promise<{ ok: boolean; error?: { message: string } }>((resolve) => {
        const onMessage = (message: MessageEvent) => {
          const parsed = JSON.parse(String(message.data)) as { id?: number; result?: never };
          if (parsed.id !== id) return;
          socket.removeEventListener('message', onMessage);
          resolve(parsed.result!);
        };
        socket.addEventListener('message', onMessage);
      });
      socket.send(JSON.stringify({ id, verb, payload }));
      const result = await answer;
      results.push(result.ok ? { ok: true } : { ok: false, message: result.error?.message ?? '' });
    }
    socket.close();
    return results;
  }, calls);
}
