import type { Page } from '@playwright/test';
import { createServiceTokens } from '../sandbox/auth/service-tokens';
import { VERB_NAMES } from '../src/shared/contract/names';
import { watchCsp } from './support/csp-watch';
import { expect, test, type ScribeApp } from './support/fixtures';
import { tokenLikeIn, watchSocketFrames, whatThePageKeeps } from './support/token-search';
import { tryTheDemo, tryTheDemoAsStandardPartner, untilRecorded } from './support/workspace';

/**
 * What an auditor checks from the outside of the renderer: it exposes nothing but the contract's
 * verbs, holds no token anywhere it can reach, opens no windows, and runs under its CSP with no
 * violation, the microphone, the VAD's model, its WebAssembly runtime and the AudioWorklet
 * included. The two searches that could pass by seeing nothing (tokens, CSP violations) are shown
 * to catch a planted token and a planted violation.
 */
const WAV = 'e2e/fixtures/conversation.wav';
test.use({ fakeMicrophone: WAV });

/**
 * Globals a library of the page sets: zod 4 keeps its config and schema registry on globalThis so
 * that copies of it share them. Settings and schema metadata; no data, no way to the contract.
 */
const LIBRARY_GLOBALS = ['__zod_globalConfig', '__zod_globalRegistry'];

/**
 * First run, then 9 s of the conversation the fake microphone plays: two turns, past the demo
 * service's minimum of 1 s of speech for a note.
 */
async function firstRunAndShortVisit(page: Page): Promise<void> {
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  // First run: the built-in demo service, as its bearer partner.
  await tryTheDemo(page);
  await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as demo-clinician');
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  // Speech flagged: the VAD's model ran on its WebAssembly runtime, fed by the AudioWorklet.
  await expect(page.getByTestId('speech-flag')).toHaveText('Speech', { timeout: 15_000 });
  await untilRecorded(page, 9, 20_000);
  await page.getByRole('button', { name: 'End visit' }).click();
}

test('window has nothing a blank page lacks but the contract bridge, and the bridge has exactly the verbs', async ({
  scribe,
}) => {
  const { page } = scribe;
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  // A blank frame of the same origin in the same browser: the globals every page has.
  const extra = await page.evaluate(() => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const blank = new Set(Object.getOwnPropertyNames(frame.contentWindow));
    frame.remove();
    return Object.getOwnPropertyNames(window).filter((name) => !blank.has(name));
  });
  if (scribe.target === 'browser') {
    // Browser mode's bridge is a socket held inside the app's modules: no global of its own.
    expect(extra.sort()).toEqual(LIBRARY_GLOBALS);
    return;
  }
  expect(extra.sort()).toEqual(['scribe', ...LIBRARY_GLOBALS].sort());
  const bridge = await page.evaluate(() => {
    const scribe = (
      window as unknown as { scribe: Record<string, unknown> & { verbs: Record<string, unknown> } }
    ).scribe;
    return {
      keys: Object.keys(scribe).sort(),
      verbs: Object.keys(scribe.verbs).sort(),
      allFunctions: Object.values(scribe.verbs).every((verb) => typeof verb === 'function'),
    };
  });
  expect(bridge.keys).toEqual(['on', 'sendChunk', 'verbs']);
  expect(bridge.verbs).toEqual([...VERB_NAMES].sort());
  expect(bridge.allFunctions).toBe(true);
});

test('window.open is refused: it returns null, nothing opens, it cannot be put back, and the address is not logged', async ({
  scribe,
}) => {
  const { page } = scribe;
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  const opened: Page[] = [];
  page.context().on('page', (popup) => opened.push(popup));
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));

  // Compared in the page: a Window that did open would not come back as null, nor serialize well.
  expect(await page.evaluate(() => window.open('https://example.org/?code=secret-code') === null)).toBe(true);
  expect(await page.evaluate(() => window.open('/', '_blank') === null)).toBe(true);
  const reassigned = await page.evaluate(() => {
    const refusal = window.open;
    try {
      window.open = () => null;
    } catch {
      // Strict-mode code gets a TypeError; either way the refusal stays.
    }
    return window.open === refusal;
  });
  expect(reassigned).toBe(true);
  // A popup shows up as a new page within milliseconds; give it a second.
  await page.waitForTimeout(1_000);
  expect(opened).toEqual([]);
  expect(console.join('\n')).toContain('window.open was refused');
  expect(console.join('\n')).not.toContain('secret-code');
});

test('bearer partner and a short visit: no token in the page, its storage, its cookies or any contract message', async ({
  scribe,
}) => {
  test.setTimeout(120_000);
  const { page } = scribe;
  const frames = watchSocketFrames(page);
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));
  await page.reload();

  await firstRunAndShortVisit(page);
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });

  const places: Record<string, string> = { ...(await whatThePageKeeps(page)), console: console.join('\n') };
  if (scribe.target === 'browser') {
    // The watch saw the contract at work: the signed-in status and the note came over it.
    expect(frames.received.join('\n')).toContain('"signedIn":true');
    expect(frames.received.join('\n')).toContain('"providerId":"demo-clinician"');
    places.received = frames.received.join('\n');
    places.sent = frames.sent.join('\n');
  } else {
    places.contract = await everyReadAnswer(scribe);
  }
  for (const [place, text] of Object.entries(places)) expect(tokenLikeIn(text), place).toEqual([]);
});

test('standard partner: after the sign-in at the identity provider, no token reached the page', async ({
  scribe,
}) => {
  test.skip(scribe.target !== 'browser', 'in Electron the sign-in page opens in the system browser');
  const { page } = scribe;
  const frames = watchSocketFrames(page);
  await page.reload();
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  await tryTheDemoAsStandardPartner(page);
  const popup = page.context().waitForEvent('page');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const idp = await popup;
  await idp.getByLabel('Username').fill('dr-audit');
  await idp.getByLabel('Display name').fill('Dr Audit');
  await idp.getByRole('button', { name: 'Sign in' }).click();
  await expect(idp.getByRole('heading', { name: 'Sign-in complete' })).toBeVisible();
  await idp.close();
  await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-audit');

  expect(frames.received.join('\n')).toContain('"providerId":"dr-audit"');
  const places = { ...(await whatThePageKeeps(page)), received: frames.received.join('\n') };
  for (const [place, text] of Object.entries(places)) expect(tokenLikeIn(text), place).toEqual([]);
});

test('the token search finds a real service token, named tokens and partner tokens wherever it looks', async ({
  scribe,
}) => {
  test.skip(
    scribe.target !== 'browser',
    'planting a cookie needs an http page; the search itself is the same code in Electron',
  );
  const { page } = scribe;
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  // A token as the documentation service issues them (the sandbox's own code).
  const { token } = await createServiceTokens({ lifetimeMs: 60_000 }).issue({
    partnerId: 'demo-bearer',
    providerId: 'dr-audit',
  });
  expect(tokenLikeIn(token)).toHaveLength(1);
  expect(tokenLikeIn('{"access_token":"opaque-0123456789"}')).toHaveLength(1);
  expect(tokenLikeIn('?refresh_token=opaque-0123456789&x=1')).toHaveLength(1);
  expect(tokenLikeIn('{"access_token":null,"sdp_service_token":""}')).toEqual([]);

  await page.evaluate(async (planted) => {
    localStorage.setItem('planted', planted);
    sessionStorage.setItem('planted', `{"sdp_service_token":"${planted}"}`);
    document.cookie = `planted=${planted}; path=/`;
    const open = indexedDB.open('planted', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('records', { autoIncrement: true });
    await new Promise((resolve) => (open.onsuccess = resolve));
    const put = open.result.transaction('records', 'readwrite').objectStore('records').put({ planted });
    await new Promise((resolve) => (put.onsuccess = resolve));
    open.result.close();
    const note = document.createElement('p');
    note.textContent = 'sandbox-bearer-partner-token';
    document.body.append(note);
  }, token);

  const places = await whatThePageKeeps(page);
  for (const place of ['html', 'localStorage', 'sessionStorage', 'indexedDB', 'cookies'])
    expect(tokenLikeIn(places[place] ?? ''), place).not.toEqual([]);
});

test('no CSP violation while the app loads, checks the microphone and records with its VAD', async ({
  scribe,
}) => {
  test.setTimeout(90_000);
  const { page } = scribe;
  const csp = await watchCsp(page);
  await page.reload();
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  await tryTheDemo(page);

  await page.getByRole('button', { name: 'Check the microphone' }).click();
  await expect(page.getByTestId('mic-check-device')).toContainText('Listening to');
  await page.getByRole('button', { name: 'Stop the microphone check' }).click();

  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  await expect(page.getByTestId('speech-flag')).toHaveText('Speech', { timeout: 15_000 });
  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-heading')).toBeFocused();

  expect(csp.violations).toEqual([]);
  expect(csp.consoleMessages).toEqual([]);
});

test('the CSP watch sees a violation: an inline script and an inline event handler are refused and reported', async ({
  scribe,
}) => {
  const { page } = scribe;
  const csp = await watchCsp(page);
  await page.reload();
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');

  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'document.body.dataset.inlineScript = "ran"';
    document.head.append(script);
    const button = document.createElement('button');
    button.setAttribute('onclick', 'document.body.dataset.inlineHandler = "ran"');
    document.body.append(button);
    button.click();
    button.remove();
    return { ...document.body.dataset };
  });
  expect(ran).toEqual({});
  await expect.poll(() => csp.violations.join('\n')).toContain('script-src-elem blocked inline');
  await expect.poll(() => csp.violations.join('\n')).toContain('script-src-attr blocked inline');
  await expect.poll(() => csp.consoleMessages.length).toBeGreaterThanOrEqual(2);
});

/** Electron: the answer of every verb that only reads, through the bridge, as the page gets it. */
async function everyReadAnswer(scribe: ScribeApp): Promise<string> {
  return scribe.page.evaluate(async () => {
    const { verbs } = (window as unknown as { scribe: { verbs: Record<string, () => Promise<unknown>> } })
      .scribe;
    const reads = [
      'app.info',
      'settings.get',
      'secrets.status',
      'auth.status',
      'recorder.state',
      'history.list',
    ];
    return JSON.stringify(await Promise.all(reads.map((verb) => verbs[verb]!())));
  });
}
