import type { Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { echoUnderDirectDb, samplesOf, type EchoWindow } from './audio-analysis';
import { announceMicrophone } from './call-tab';
import { expect, test, useExternalService, type Watched } from './external-service';
import { expectEveryCapturedByte } from './service-audio';
import {
  TELEHEALTH,
  chooseTelehealth,
  describeTurns,
  type TurnsAtService,
  readConversationSamples,
  readTelehealth,
  startTelehealthVisit,
  turnsAtService,
  untilSent,
} from './telehealth-visit';
import { openSettings, saveAndGoBack } from './workspace';
import type { SandboxProcess } from '../../sandbox/test-support/sandbox-process';

/**
 * Issue 30, the echo study (e2e/telehealth-echo-headset.spec.ts, telehealth-echo-speakers.spec.ts):
 * what reaches the service when the clinician's microphone also hears the call, on speakers instead
 * of a headset, and what the browser's echo cancellation does about it. The call tab plays the
 * patient's side through this browser (as a call in a browser tab would through the speakers) and
 * its sound is shared; the fake microphone plays the clinician's turns, with a headset
 * (e2e/fixtures/telehealth-clinician.wav) or with speakers (telehealth-speakers.wav: the patient's
 * voice 6 dB under the call's, later). Four visits: each microphone with the app's default
 * processing and with "Echo cancellation" on in Settings. Each writes its figures to
 * e2e/artifacts/telehealth-echo-*.json; docs/telehealth.md has them, and the choice they led to:
 * the microphone as the clinician set it, and a headset asked for when the microphone hears the
 * call.
 */
const script = readTelehealth();
const lastTurn = script.turns.at(-1)!;
/** A turn is at the service when its waveform correlates this well (measured 0.6 to 1; absent ~0). */
const PRESENT = 0.5;

/** What one visit measured at the service. */
export interface EchoFigures {
  microphone: 'headset' | 'speakers';
  echoCancellation: boolean;
  /**
   * Speakers: the patient's voice through the microphone, against the call's own copy of it (dB),
   * each patient turn's on its own and their power averaged.
   * Not measured with a headset: there is no echo to fit, and a fit would find the call's own copy
   * wherever a drift of its capture put it near the echo's place.
   */
  echoUnderCallDb: number | null;
  /** Each turn's waveform correlation with its source at the service, by speaker. */
  correlation: { clinician: number[]; patient: number[] };
  /** Whether the window asked for a headset during the visit. */
  askedForHeadset: boolean;
  /** The script's words the sandbox's recogniser (pocketsphinx) wrote, of all its words. */
  wordsRecognised: number;
}

/** Records the whole telehealth visit with this microphone and processing; returns its figures. */
export async function measureVisit(
  page: Page,
  sandbox: SandboxProcess,
  watched: Watched,
  microphone: EchoFigures['microphone'],
  echoCancellation: boolean,
): Promise<EchoFigures> {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await announceMicrophone(page);
  await page.reload();
  // Auto-pause as long as it goes: every chunk reaches the service, to be compared.
  await useExternalService(page, sandbox.url, 'dr-echo');
  if (echoCancellation) {
    await openSettings(page, 'Recording and display');
    await page.getByLabel('Echo cancellation').check();
    await saveAndGoBack(page);
  }
  await chooseTelehealth(page);
  const encounterId = `echo${microphone}${echoCancellation ? 'aec' : 'plain'}`;
  const call = await startTelehealthVisit(page, watched.audio, encounterId);
  let askedForHeadset = false;
  const headsetNotice = page.getByTestId('call-echo');
  // Watched for the whole visit: the notice may come and go.
  const watching = (async () => {
    while (!page.isClosed() && (await page.getByRole('button', { name: 'End visit' }).count()) > 0) {
      if ((await headsetNotice.count()) > 0) askedForHeadset = true;
      await page.waitForTimeout(250);
    }
  })();
  await untilSent(watched.audio, lastTurn.endMs + 2_000);
  if (askedForHeadset) await page.screenshot({ path: `e2e/artifacts/telehealth-headset-asked.png` });
  await page.getByRole('button', { name: 'End visit' }).click();
  await watching;
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  await call.close();
  const transcript = (await page.getByTestId('transcript').textContent()) ?? '';

  const session = await expectEveryCapturedByte(
    sandbox,
    (await sandbox.sessionOf(encounterId)).id,
    watched.audio,
  );
  const micSource =
    microphone === 'speakers' ? readConversationSamples(TELEHEALTH.speakers) : script.clinician;
  const found = turnsAtService(script, session.pcm, micSource);
  // Each patient turn's echo on its own, where the microphone's timeline was then (echoWindows),
  // the call's copy where the call was found for that turn (headless Chromium's tab capture now and
  // then inserts a few ms of silence); and their mean power. One fit over all turns at once let
  // what echo cancellation leaves, whose sign wanders from turn to turn, cancel out: one visit read
  // −49 dB over all turns, with a turn at −11 dB on its own.
  const echoByTurnDb =
    microphone === 'speakers'
      ? echoWindows(found, samplesOf(session.pcm)).map((w) =>
          echoUnderDirectDb(script.patient, samplesOf(session.pcm), [w]),
        )
      : [];
  const figures: EchoFigures = {
    microphone,
    echoCancellation,
    echoUnderCallDb: microphone === 'speakers' ? powerMeanDb(echoByTurnDb) : null,
    correlation: {
      clinician: found.turns.filter((t) => t.speaker === 'clinician').map((t) => t.correlation),
      patient: found.turns.filter((t) => t.speaker === 'patient').map((t) => t.correlation),
    },
    askedForHeadset,
    wordsRecognised: wordsRecognised(transcript),
  };
  mkdirSync('e2e/artifacts', { recursive: true });
  writeFileSync(`e2e/artifacts/telehealth-echo-${encounterId}.json`, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(
    `${microphone}, echo cancellation ${echoCancellation ? 'on' : 'off'}: echo ${figures.echoUnderCallDb?.toFixed(1) ?? '(none)'} dB under the call; ` +
      `${echoByTurnDb.length ? `(each patient turn ${echoByTurnDb.map((db) => db.toFixed(1)).join(', ')} dB); ` : ''}` +
      `asked for a headset: ${askedForHeadset}; words recognised ${(figures.wordsRecognised * 100).toFixed(0)} %; ${describeTurns(found)}`,
  );
  for (const turn of found.turns)
    expect(turn.correlation, `${turn.speaker}'s turn at ${turn.startMs} ms at the service`).toBeGreaterThan(
      PRESENT,
    );
  return figures;
}

/** The share of the script's words (3 letters or more) found in the transcript. */
function wordsRecognised(transcript: string): number {
  const words = (text: string) => text.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const heard = new Set(words(transcript));
  const said = script.turns.flatMap((t) => words(t.words));
  return said.filter((word) => heard.has(word)).length / said.length;
}

/** The mean power of figures in dB, in dB. */
function powerMeanDb(db: number[]): number | null {
  if (db.length === 0) return null;
  return 10 * Math.log10(db.reduce((sum, d) => sum + 10 ** (d / 10), 0) / db.length);
}

/** Two copies closer than 3 ms are one sound to a least-squares fit of speech. */
const ONE_COPY = 48;
/** Chromium's fake microphone reads its file 10 ms at a time, and drops or repeats whole reads. */
const FAKE_READ = 160;

/**
 * Each patient turn, with the echo's place in the received audio. The fake microphone's timeline
 * moves by whole 10 ms reads over a visit (measured: the clinician's turns at 90.8, 100.8, 100.8 and
 * 130.8 ms in one), and a fit even 1 ms off the echo's place finds nothing: placed by the first
 * turn alone, the study read an echo of −6 dB as −30 dB (session 15's CI), under the bound that
 * echo cancellation is held to. So each turn takes, of the places the microphone's timeline can
 * have been at between the clinician's turns around it (whole reads apart, one read either side),
 * the one where the patient's voice through the microphone fits best: with echo cancellation off,
 * the echo's own place (−2.3 to −6.0 dB measured, the file has −6); with it on, the largest of a few
 * readings of what is left, never less than the echo there is.
 */
function echoWindows(found: TurnsAtService, received: Int16Array): EchoWindow[] {
  const clinician = found.turns.filter((t) => t.source === 'microphone');
  const echoDelay = (script.echo.delayMs / 1_000) * 16_000;
  const fit = (window: EchoWindow) => echoUnderDirectDb(script.patient, received, [window]);
  return found.turns
    .filter((t) => t.speaker === 'patient')
    .flatMap((turn) => {
      const before = clinician.filter((c) => c.startMs < turn.startMs).at(-1) ?? clinician[0]!;
      const after = clinician.find((c) => c.startMs > turn.startMs) ?? clinician.at(-1)!;
      const windowAt = (lag: number): EchoWindow => ({
        startMs: turn.startMs,
        endMs: turn.endMs,
        directLag: turn.lag,
        echoLag: lag + echoDelay,
      });
      const [low, high] = [Math.min(before.lag, after.lag), Math.max(before.lag, after.lag)];
      // Where the microphone's echo falls on the call's own copy (the call started about as much
      // later than the microphone as the echo's delay), the two are one sound at the service: no
      // fit can tell them apart, and the turn says nothing of the echo.
      if (low + echoDelay - ONE_COPY <= turn.lag && turn.lag <= high + echoDelay + ONE_COPY) return [];
      // Whole reads from the turn before, from one read under the lower neighbour to one over the
      // higher; each fitted once. A place where the echo would fall on the call's copy (a read
      // outside the band above) is no reading: the two are one sound, and a fit of two equal
      // copies is 0/0, NaN dB, which no later place could beat (stop 51's CI read NaN once).
      const first = before.lag - FAKE_READ * (Math.floor((before.lag - low) / FAKE_READ) + 1);
      let best: { window: EchoWindow; db: number } | undefined;
      for (let lag = first; lag <= high + FAKE_READ; lag += FAKE_READ) {
        if (Math.abs(lag + echoDelay - turn.lag) <= ONE_COPY) continue;
        const db = fit(windowAt(lag));
        if (best === undefined || db > best.db) best = { window: windowAt(lag), db };
      }
      return best === undefined ? [] : [best.window];
    });
}
