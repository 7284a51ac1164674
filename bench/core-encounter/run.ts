/**
 * The main run: starts the sandboxes, the proxy and the reference roles, drives the core through
 * the visit at SPEED× and then at real time, and writes (or only prints) the report section.
 */
import { saveHeadline } from '../headline';
import { writeSection } from '../report';
import { CHUNKS_PER_MINUTE } from './constants';
import { runCore } from './core-client';
import { forceGc } from './heap';
import { audioFrameTimes, jitter } from './jitter';
import { encounterHeadline, encounterMarkdown } from './markdown';
import { JITTER_SECONDS, MINUTES, SPEED, values } from './options';
import { firstLine, roleResult, sandboxSession, startRole, startSandbox, stopChildren } from './processes';
import type { ReferenceRun } from './reference-client';
import { sleep } from './tools';
import { visitPlan } from './visit';

export async function runMain(): Promise<void> {
  forceGc();
  const started = performance.now();
  const chunks = Math.round(MINUTES * CHUNKS_PER_MINUTE);
  const plan = visitPlan(chunks, 20261122, true);
  const jitterPlan = visitPlan(Math.round(JITTER_SECONDS * 10), 7, false);

  const [fastUrl, realUrl] = await Promise.all([startSandbox(1 / SPEED), startSandbox(1)]);
  const proxy = startRole('proxy', ['--target', new URL(realUrl).host]);
  const proxyUrl = `http://127.0.0.1:${await firstLine(proxy, 'PROXY_PORT=')}`;
  const audioFrames = audioFrameTimes(proxy);

  // 1. The visit at SPEED×: the core here, the reference in its own process, at the same time.
  console.log(`replaying ${MINUTES} min at ${SPEED}× through the core and the reference…`);
  const referenceChild = startRole(
    'reference-replay',
    ['--url', fastUrl, '--minutes', String(MINUTES), '--speed', String(SPEED)],
    true,
  );
  const [ours, reference] = await Promise.all([
    runCore(fastUrl, plan, SPEED, { measureHeap: true, encounterId: 'benchvisit' }),
    roleResult<ReferenceRun>(referenceChild),
  ]);
  const oursAtService = await sandboxSession(fastUrl, ours.sessionId);
  const referenceAtService = await sandboxSession(fastUrl, reference.sessionId);

  // 2. Send jitter at 1×: the core here and the reference in its own process, both through the proxy.
  console.log(`streaming ${JITTER_SECONDS} s at real time through the proxy…`);
  const jitterChild = startRole('reference-jitter', [
    '--url',
    proxyUrl,
    '--jitter-seconds',
    String(JITTER_SECONDS),
  ]);
  const [oursRealTime, referenceRealTime] = await Promise.all([
    runCore(proxyUrl, jitterPlan, 1, { measureHeap: false, encounterId: 'benchjitter' }),
    roleResult<{ sessionId: string }>(jitterChild),
  ]);
  await sleep(300);
  const oursJitter = jitter(audioFrames.get(oursRealTime.sessionId) ?? []);
  const referenceJitterResult = jitter(audioFrames.get(referenceRealTime.sessionId) ?? []);
  await stopChildren();
  const totalS = (performance.now() - started) / 1000;

  const measured = {
    plan,
    ours,
    reference,
    oursAtService,
    referenceAtService,
    oursJitter,
    referenceJitterResult,
    totalS,
  };
  const markdown = encounterMarkdown(measured);
  if (!values['print-only']) writeSection('core-encounter', markdown);
  saveHeadline('core-encounter', encounterHeadline(measured));
  console.log(`\n${markdown}`);
}
