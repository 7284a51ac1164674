/**
 * One visit of the conversation in browser mode against a sandbox process: the chunks the page sent
 * to the app core (read off the contract socket) and the audio the service kept for the session.
 */
import { CapturedAudio, type SentChunk } from '../../e2e/support/captured-audio';
import type { SandboxProcess, SandboxSession } from '../../e2e/support/sandbox-process';
import { endVisit, reachClock, startVisit, useExternalService } from '../browser-app/first-run';
import { CONVERSATION_WAV, launchChromium, startApp } from '../browser-app/launch';
import { readMarks, recordMarks, type Mark } from '../browser-app/page-marks';
import { CannotMeasure } from '../browser-app/run';

export interface VisitOptions {
  autoPauseSeconds: number;
  encounterId: string;
  /** The visit's clock (m:ss of captured audio) at which End is pressed. */
  endAt: string;
}

export interface Visit extends VisitOptions {
  /** Every chunk the page sent, in order. */
  sent: SentChunk[];
  /** The session's PCM at the service, after End. */
  servicePcm: Buffer;
  session: SandboxSession;
  /** The recorder states the page showed, with page-clock times. */
  states: Mark[];
}

/** Statuses after which the service takes no more audio. */
const DONE = new Set(['processing', 'completed', 'skipped', 'failed', 'cancelled']);

export async function recordVisit(sandbox: SandboxProcess, options: VisitOptions): Promise<Visit> {
  const browser = await launchChromium({ wav: CONVERSATION_WAV });
  const app = await startApp();
  const page = await browser.newPage();
  const audio = new CapturedAudio(page);
  await recordMarks(page, [
    { name: 'state', selector: '[data-testid="recorder-state"]', attribute: 'data-state' },
  ]);
  await page.goto(app.host.launchUrl);
  await useExternalService(page, sandbox.url, {
    providerId: `bench-${options.encounterId}`,
    autoPauseSeconds: options.autoPauseSeconds,
  });
  await startVisit(page, options.encounterId);
  const { id } = await sandbox.sessionOf(options.encounterId);
  await reachClock(page, options.endAt);
  await endVisit(page);
  const session = await waitUntilDone(sandbox, id);
  const wav = await fetch(`${sandbox.url}/__sandbox/sessions/${encodeURIComponent(id)}/audio.wav`);
  if (!wav.ok) throw new CannotMeasure(`the sandbox gave HTTP ${wav.status} for the session's audio`);
  const servicePcm = Buffer.from(await wav.arrayBuffer()).subarray(44);
  const states = await readMarks(page);
  await page.close();
  await app.close();
  return { ...options, sent: audio.chunks, servicePcm, session, states };
}

async function waitUntilDone(sandbox: SandboxProcess, id: string): Promise<SandboxSession> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const session = await sandbox.session(id);
    if (DONE.has(session.status)) return session;
    if (Date.now() > deadline)
      throw new CannotMeasure(`the service's session stayed ${session.status} for a minute after End`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
