import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostProcess } from './browser-host-process';
import { fakeMicrophoneFlags } from './chromium';
import { test as externalServiceTest } from './external-service';
import type { ScribeApp } from './fixtures';
import { launchHideableChromium, type HideableChromium } from './hideable-chromium';

/**
 * The app in browser mode in a Chromium whose page can really be hidden (hideable-chromium.ts), its
 * fake microphone playing `wav` in a loop, so a visit never runs out of speech (nothing is held
 * back by an auto-pause).
 */
export function hideableAppTest(wav: string) {
  return externalServiceTest.extend<{ chromium: HideableChromium }>({
    chromium: async ({ target: _target }, use) => {
      const chromium = await launchHideableChromium(fakeMicrophoneFlags(wav, { loop: true }));
      await use(chromium);
      await chromium.close();
    },
    scribe: async ({ chromium }, use) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'scribe-e2e-'));
      const host = await startHostProcess(dataDir);
      const { page } = chromium;
      await page.goto(host.launchUrl);
      const scribe: ScribeApp = {
        target: 'browser',
        page,
        dataDir,
        host,
        restart: () => Promise.reject(new Error('not in this test')),
        crash: () => Promise.reject(new Error('not in this test')),
      };
      await use(scribe);
      await host.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}
