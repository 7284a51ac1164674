import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { alignSource, findTurns, readConversation, samplesOf, type FoundTurn } from './audio-analysis';
import { openCallTab, type CallTab } from './call-tab';
import type { CapturedAudio } from './captured-audio';

/**
 * The telehealth visit of the e2e (issue 30; scripts/make-telehealth-fixture.mjs): the clinician
 * at the microphone, the patient on the call, on one timeline.
 */
export const TELEHEALTH = {
  /** The microphone with a headset: the clinician alone. */
  headset: 'e2e/fixtures/telehealth-clinician.wav',
  /** The microphone with speakers: the clinician and the call's echo. */
  speakers: 'e2e/fixtures/telehealth-speakers.wav',
  /** What the call tab plays: the patient. */
  call: 'e2e/fixtures/telehealth-patient.wav',
  turnsFile: 'e2e/fixtures/telehealth.turns.json',
};

export interface TelehealthTurn {
  speaker: 'clinician' | 'patient';
  source: 'microphone' | 'call';
  words: string;
  startMs: number;
  endMs: number;
}

export interface TelehealthScript {
  totalMs: number;
  echo: { gainDb: number; delayMs: number };
  /** The patient speaking alone for longer than the auto-pause delay. */
  patientOnly: { startMs: number; endMs: number };
  turns: TelehealthTurn[];
  /** The sources' samples: the clinician's microphone (headset) and the call. */
  clinician: Int16Array;
  patient: Int16Array;
}

/** A fixture's samples (the plain 44-byte WAV header the fixture scripts write). */
export function readConversationSamples(wav: string): Int16Array {
  return readConversation(wav, TELEHEALTH.turnsFile).samples;
}

export function readTelehealth(): TelehealthScript {
  const script = JSON.parse(readFileSync(TELEHEALTH.turnsFile, 'utf8')) as Omit<
    TelehealthScript,
    'clinician' | 'patient'
  >;
  return {
    ...script,
    clinician: readConversation(TELEHEALTH.headset, TELEHEALTH.turnsFile).samples,
    patient: readConversation(TELEHEALTH.call, TELEHEALTH.turnsFile).samples,
  };
}

/**
 * In the Ready pane: the clinician's choice, by its label. A click, not check(): the choice shows
 * once main has saved it (remembered for the next visit), a moment after the click.
 */
export async function chooseTelehealth(page: Page): Promise<void> {
  const telehealth = page.getByRole('radio', { name: 'Telehealth: this computer’s sound too' });
  await telehealth.click();
  await expect(telehealth).toBeChecked();
}

/**
 * Starts a telehealth visit with `encounterId`: the call tab opens (the patient not speaking yet),
 * Start shares its sound and opens the microphone, and the call starts as the microphone opens
 * (call-tab.ts): the patient's side plays from its beginning while the microphone plays the
 * clinician's. The app's page must have been loaded with announceMicrophone. Resolves with the
 * call tab, and how much audio had been sent when it started playing (about where the call's
 * timeline starts in the recording), once the page says it records both.
 */
export async function startTelehealthVisit(
  page: Page,
  audio: CapturedAudio,
  encounterId: string,
): Promise<CallTab & { startedAfterMs: number }> {
  const call = await openCallTab(page, TELEHEALTH.call);
  await page.bringToFront();
  await page.getByLabel('Encounter ID').fill(encounterId);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await call.playing();
  const startedAfterMs = audio.count * 100;
  await expect(page.getByTestId('call-state')).toHaveText(/Recording this computer’s sound too/);
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  return { ...call, startedAfterMs };
}

/** Waits until the page has sent `ms` of audio (chunks of 100 ms). */
export async function untilSent(audio: CapturedAudio, ms: number): Promise<void> {
  await expect
    .poll(() => audio.count * 100, { timeout: ms + 60_000, intervals: [500] })
    .toBeGreaterThanOrEqual(ms);
}

/** Each speaker's turns as the service received them: where each source starts, and each turn. */
export interface TurnsAtService {
  /** Samples from the start of the received audio to each source's start. */
  microphoneLag: number;
  callLag: number;
  turns: (TelehealthTurn & FoundTurn)[];
}

/**
 * Finds each turn of both speakers in the audio the service accepted: each source is lined up on
 * its speaker's first turn, then every turn is looked for near there.
 */
export function turnsAtService(
  script: TelehealthScript,
  received: Buffer,
  microphone: Int16Array = script.clinician,
): TurnsAtService {
  const samples = samplesOf(received);
  const align = (source: Int16Array, speaker: TelehealthTurn['speaker']) => {
    const first = script.turns.find((t) => t.speaker === speaker)!;
    return alignSource(
      source,
      samples,
      {
        fromSample: (first.startMs / 1_000) * 16_000,
        length: ((first.endMs - first.startMs) / 1_000) * 16_000,
      },
      4 * 16_000,
    ).lag;
  };
  const microphoneLag = align(microphone, 'clinician');
  const callLag = align(script.patient, 'patient');
  const ofSpeaker = (speaker: TelehealthTurn['speaker']) => script.turns.filter((t) => t.speaker === speaker);
  const found = [
    ...findTurns(microphone, samples, ofSpeaker('clinician'), microphoneLag),
    ...findTurns(script.patient, samples, ofSpeaker('patient'), callLag),
  ];
  return {
    microphoneLag,
    callLag,
    turns: script.turns.map((turn) => ({ ...turn, ...found.find((f) => f.startMs === turn.startMs)! })),
  };
}

/** One line per turn for the log: speaker, start, correlation, lag and level. */
export function describeTurns(found: TurnsAtService): string {
  return found.turns
    .map(
      (t) =>
        `${t.speaker} ${t.startMs} ms: r ${t.correlation.toFixed(3)} (whole turn ${t.wholeCorrelation.toFixed(3)}), lag ${((t.lag / 16_000) * 1_000).toFixed(1)} ms, ${t.gainDb.toFixed(1)} dB`,
    )
    .join('; ');
}
