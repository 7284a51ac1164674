import { expect, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CapturedAudio } from './captured-audio';
import { test as scribeTest } from './fixtures';
import { choosePin, openSettings, saveAndGoBack } from './workspace';
import {
  startSandboxProcess,
  type SandboxProcess,
  type SandboxProcessOptions,
} from '../../sandbox/test-support/sandbox-process';

/** The sandbox's default bearer partner (sandbox/partners.default.json). */
export const BEARER_PARTNER = { id: 'demo-bearer', token: 'sandbox-bearer-partner-token' };

/** A recorder state the page displayed (`data-state` of the recorder status), with its words. */
export interface ShownState {
  state: string;
  text: string;
  /** Test-runner clock, ms. */
  at: number;
}

/** What a fault test watches in the page: the audio it sends and the recorder states it shows. */
export interface Watched {
  audio: CapturedAudio;
  /** Every change of the displayed recorder state, in order, across page loads. */
  states: ShownState[];
}

export interface ExternalServiceOptions {
  /** How the fault tests start the sandbox (its data directory is the test's own). */
  sandboxOptions: Omit<SandboxProcessOptions, 'dataDir'>;
}

/**
 * The scribe fixture plus a sandbox running as its own process (`sandbox`, stopped and its data
 * removed at the end of the test) and the page watched from its first load (`watched`).
 *
 * Time-scaled: a quarter of the service's timers (the 25 s idle rule is 6.25 s, the processing
 * delay under 0.4 s, a token lasts 15 min), so nothing but the fault breaks a 40 s visit.
 */
export const test = scribeTest.extend<ExternalServiceOptions & { sandbox: SandboxProcess; watched: Watched }>(
  {
    sandboxOptions: [{ timeScale: 0.25, asr: 'auto' }, { option: true }],

    sandbox: async ({ sandboxOptions }, use, testInfo) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'scribe-e2e-sandbox-'));
      const sandbox = await startSandboxProcess({ ...sandboxOptions, dataDir });
      await use(sandbox);
      await sandbox.stop();
      if (testInfo.status !== testInfo.expectedStatus)
        await testInfo.attach('sandbox.log', { body: sandbox.log.join('\n'), contentType: 'text/plain' });
      await rm(dataDir, { recursive: true, force: true });
    },

    watched: async ({ scribe }, use) => {
      const { page } = scribe;
      const audio = new CapturedAudio(page);
      const states: ShownState[] = [];
      await page.exposeFunction('__recorderStateShown', (state: string, text: string) => {
        states.push({ state, text, at: Date.now() });
      });
      await page.addInitScript(() => {
        let last: string | null = null;
        const report = (state: string, text: string) =>
          (window as unknown as { __recorderStateShown(s: string, t: string): void }).__recorderStateShown(
            state,
            text,
          );
        new MutationObserver(() => {
          const shown = document.querySelector('[data-testid="recorder-state"]');
          const state = shown?.getAttribute('data-state') ?? null;
          if (state === null || state === last) return;
          last = state;
          report(state, shown?.textContent ?? '');
        }).observe(document, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ['data-state'],
        });
      });
      // The fixture opened the app before these listeners existed: load it again under them.
      await page.reload();
      await use({ audio, states });
    },
  },
);

export { expect };

/**
 * First run pointed at `serviceUrl` as the sandbox's bearer partner, with auto-pause at its
 * longest (20 s: the conversation's 8 s silence is not paused, so every captured chunk is sent),
 * or after `autoPauseSeconds`. Save signs in (Register on first use, then Login) with nothing else
 * to type.
 */
export async function useExternalService(
  page: Page,
  serviceUrl: string,
  providerId = 'dr-faults',
  autoPauseSeconds = 20,
): Promise<void> {
  await page.getByRole('button', { name: 'Connect to your organisation’s service' }).click();
  await page.getByLabel('Service URL').fill(serviceUrl);
  await page.getByLabel('Partner ID').fill(BEARER_PARTNER.id);
  await page.getByLabel('Sign-in model').selectOption('bearer');
  await page.getByLabel('Partner token').fill(BEARER_PARTNER.token);
  await page.getByLabel('Provider ID').fill(providerId);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('sign-in-state')).toContainText(`Signed in as ${providerId}`, {
    timeout: 15_000,
  });
  // A bearer partner's clinician, signed in for the first time here: their PIN (issue 29). Asked
  // for in place of the visit screen, as soon as the sign-in lands: the screen comes after it.
  await choosePin(page);
  await expect(page.getByRole('heading', { name: 'Next visit' })).toBeVisible();
  // The clinician's own page: auto-pause at its longest, or as asked.
  await openSettings(page, 'Recording and display');
  await page.getByLabel('Auto-pause after (seconds without speech)').fill(String(autoPauseSeconds));
  await saveAndGoBack(page);
}

/** Starts recording a visit with this encounter id; resolves once the page says it records. */
export async function startVisit(page: Page, encounterId: string): Promise<void> {
  // After a visit the pane shows its note; the next one is its own action.
  if ((await page.getByTestId('results-heading').count()) > 0) {
    await page.getByRole('button', { name: 'New visit' }).click();
  }
  await page.getByLabel('Encounter ID').fill(encounterId);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  await expect(page.getByTestId('encounter-id')).toHaveText(`Encounter ${encounterId}`);
}
