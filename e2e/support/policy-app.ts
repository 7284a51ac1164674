import { expect, type Browser, type Page } from '@playwright/test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../../sandbox/test-support/sandbox-process';
import { startHostProcess } from './browser-host-process';
import { startCountingProxy } from './counting-proxy';

/**
 * The sandbox as its own process and browser mode on a policy that names it (through a proxy that
 * counts every call, when asked), at 1366×768 with the page's clock installed so the idle time
 * can be moved on. For the lock's specs: a real service's partner, never the built-in demo, which
 * has nothing to protect.
 */
export async function launchOnPolicy(
  browser: Browser,
  policyFor: (serviceUrl: string, sandboxUrl: string) => Record<string, unknown>,
  options: { countCalls?: boolean; movableClock?: boolean } = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'scribe-unlock-'));
  const sandbox = await startSandboxProcess({
    dataDir: join(dir, 'sandbox'),
    timeScale: 0.25,
    asr: 'energy',
  });
  const service = options.countCalls ? await startCountingProxy(sandbox.url) : undefined;
  const policyFile = join(dir, 'policy.json');
  await writeFile(policyFile, JSON.stringify(policyFor(service?.url ?? sandbox.url, sandbox.url)));
  const dataDir = join(dir, 'data');
  const start = () =>
    startHostProcess(dataDir, ['--policy', policyFile], { movableClock: options.movableClock === true });
  let host = await start();
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  await page.context().grantPermissions(['microphone']);
  await page.clock.install();
  await page.goto(host.launchUrl);
  return {
    page,
    /** The app's data directory (privacy.json, History, the secrets file). */
    dataDir,
    /** The service's address the policy names (the counting proxy's, when asked for). */
    serviceUrl: service?.url ?? sandbox.url,
    /** Every call the app made to the service (countCalls), in order. */
    calls: service?.calls ?? [],
    /** Holds each call to the service this long from now on (countCalls; 0 ends it). */
    setServiceLatency(ms: number) {
      if (!service) throw new Error('setServiceLatency needs launchOnPolicy’s countCalls');
      service.setLatency(ms);
    },
    /** Moves main's clock and the page's on by `ms` (movableClock): a long wait passes at once. */
    async passTime(ms: number) {
      await host.moveClock(ms);
      await page.clock.fastForward(ms);
    },
    /**
     * Kills the app (SIGKILL: no handler runs), does `whileStopped` to its files as a person at
     * the computer could, and starts it again on the same data, the page on its new address.
     */
    async killAndStart(whileStopped: () => Promise<void>) {
      await host.kill();
      await whileStopped();
      host = await start();
      await page.goto(host.launchUrl);
    },
    async close() {
      await host.stop();
      await service?.close();
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The app `launchOnPolicy` starts, as a spec holds it. */
export type PolicyApp = Awaited<ReturnType<typeof launchOnPolicy>>;

/** `launchOnPolicy`, then `use` of it; the app, its sandbox and its files go whatever happens. */
export async function withPolicyApp(
  browser: Browser,
  policyFor: Parameters<typeof launchOnPolicy>[1],
  use: (app: PolicyApp) => Promise<void>,
): Promise<void> {
  const app = await launchOnPolicy(browser, policyFor);
  try {
    await use(app);
  } finally {
    await app.close();
  }
}

/**
 * A standard partner's policy for the sandbox as its own process: its IdP, its public client, no
 * demo (the lock's specs need a real service's partner).
 */
export const standardPolicy = (serviceUrl: string, sandboxUrl: string) => ({
  serviceUrl,
  partnerId: 'demo-standard',
  authModel: 'standard',
  oidcIssuer: `${sandboxUrl}/idp`,
  oidcClientId: 'ambient-scribe-desktop',
  demoAllowed: false,
});

/**
 * Presses `button` and signs in as `username` on the IdP page it opens in a new tab. The IdP asks
 * every time (a fresh sign-in), although its tab may still hold an earlier session.
 */
export async function signInAtIdp(page: Page, button: string, username: string): Promise<void> {
  const popup = page.context().waitForEvent('page');
  await page.getByRole('button', { name: button }).click();
  const idp = await popup;
  await idp.getByLabel('Username').fill(username);
  await idp.getByRole('button', { name: 'Sign in' }).click();
  await expect(idp.getByRole('heading', { name: 'Sign-in complete' })).toBeVisible();
  await idp.close();
}

/**
 * A bearer partner of the sandbox as its own process, signing in as `providerId`: IT's defaults,
 * nothing locked, unless `extra` says otherwise.
 */
export const bearerPolicy =
  (providerId: string, extra: Record<string, unknown> = {}) =>
  (serviceUrl: string) => ({
    serviceUrl,
    partnerId: 'demo-bearer',
    authModel: 'bearer',
    partnerToken: 'sandbox-bearer-partner-token',
    providerId,
    ...extra,
  });
