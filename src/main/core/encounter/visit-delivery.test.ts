import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Results } from '../../../shared/contract';
import { silentLogger, systemClock } from '../ports';
import { ServiceCallError } from '../service/service-error';
import { deliverVisit, type DeliveryDeps } from './visit-delivery';

const unreachable = () =>
  new ServiceCallError(0, 'unreachable', 'The documentation service cannot be reached.');

/** A service whose calls answer from the script given (an Error is thrown), then succeed. */
function scriptedService(script: { end?: Error[]; status?: (Error | string)[] } = {}) {
  const calls: string[] = [];
  const end = [...(script.end ?? [])];
  const status = [...(script.status ?? [])];
  const rest = {
    async endAmbientSession(id: string) {
      calls.push(`end ${id}`);
      const next = end.shift();
      if (next) throw next;
    },
    async ambientStatus(id: string) {
      calls.push(`status ${id}`);
      const next = status.shift() ?? 'completed';
      if (next instanceof Error) throw next;
      return next;
    },
    ambientContent: async () => ({ summary: [{ title: 'Plan', content: 'Rest.' }] }),
    ambientTranscript: async () => ({ final_transcript: [] }),
  };
  return { rest: rest as unknown as DeliveryDeps['rest'], calls };
}

function harness(rest: DeliveryDeps['rest']) {
  const visits: Partial<HistoryEntry>[] = [];
  const progress: { status: string; done: boolean; offline?: boolean }[] = [];
  const results: Results[] = [];
  const deps: DeliveryDeps = {
    clock: systemClock,
    log: silentLogger,
    rest,
    polling: { firstDelayMs: 1, maxDelayMs: 5 },
    retry: { firstDelayMs: 2, maxDelayMs: 10 },
    registerPoll: () => undefined,
    onResults: (r) => results.push(r),
    onResultsProgress: (p) => progress.push(p),
    onVisit: (v) => visits.push(v),
  };
  return { deps, visits, progress, results };
}

const leg = (events: string[]) => ({
  kind: 'ambient' as const,
  sessionId: 's1',
  sendRest: async () => void events.push('sent the rest'),
  release: () => void events.push('released'),
});

describe('delivering a visit after End', () => {
  it('while the service cannot be reached it is finishing when online, and it finishes by itself when it can', async () => {
    const service = scriptedService({
      end: [unreachable(), unreachable()],
      status: [unreachable(), 'processing'],
    });
    const { deps, visits, progress, results } = harness(service.rest);
    const events: string[] = [];
    await deliverVisit({ sessionId: 's1', kind: 'ambient', main: leg(events) }, deps);

    expect(events).toEqual(['sent the rest', 'released']);
    // Offline then online again, twice (the end call, then a status poll), and only at the changes.
    expect(visits.map((v) => v.state)).toEqual([
      'finishing',
      'processing',
      'finishing',
      'processing',
      'done',
    ]);
    expect(progress.filter((p) => p.offline !== undefined).map((p) => p.offline)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(progress.at(-1)).toMatchObject({ status: 'completed', done: true });
    expect(results).toEqual([expect.objectContaining({ status: 'completed', summary: [expect.anything()] })]);
    expect(visits.at(-1)).toMatchObject({ audioKept: false });
  });

  it("the note's results carry the visit clock kept while recording, to show transcript times on it", async () => {
    const visitClock = [
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 3_000, visitStartMs: 3_400 },
    ];
    const { deps, results } = harness(scriptedService().rest);
    await deliverVisit({ sessionId: 's1', kind: 'ambient', main: leg([]), visitClock }, deps);
    expect(results).toEqual([expect.objectContaining({ status: 'completed', transcript: [], visitClock })]);

    // None kept (an older spool, a rebuilt manifest): the transcript keeps the service's times.
    const without = harness(scriptedService().rest);
    await deliverVisit({ sessionId: 's1', kind: 'ambient', main: leg([]) }, without.deps);
    expect(without.results[0]).toMatchObject({ status: 'completed' });
    expect(without.results[0]).not.toHaveProperty('visitClock');
  });

  it('a session the service had already ended (the answer to the first end was lost) goes on to its verdict', async () => {
    const alreadyEnded = new ServiceCallError(
      400,
      'invalid_end_session_request',
      'This recording has already ended.',
    );
    const service = scriptedService({ end: [alreadyEnded] });
    const { deps, progress } = harness(service.rest);
    await deliverVisit({ sessionId: 's1', kind: 'ambient', main: leg([]) }, deps);
    expect(progress.at(-1)).toMatchObject({ status: 'completed', done: true });
  });

  it('an answer that retrying cannot change fails the visit with a sentence, keeping its audio to try again', async () => {
    const refused = new ServiceCallError(
      404,
      'session_not_found',
      'The service does not know this recording any more.',
    );
    const service = scriptedService({ end: [refused] });
    const { deps, visits, results, progress } = harness(service.rest);
    const failed: boolean[] = [];
    // The spool's directory exists (the audio is on disk): that is what makes Try again possible.
    const spool = {
      dir: tmpdir(),
      setState: () => true,
      setFailed: (f: boolean) => failed.push(f),
      close: () => true,
    } as unknown as NonNullable<Parameters<typeof deliverVisit>[0]['main']['spool']>;
    await deliverVisit({ sessionId: 's1', kind: 'ambient', main: { ...leg([]), spool } }, deps);
    expect(results).toEqual([
      expect.objectContaining({
        status: 'failed',
        problem:
          "The service does not know this recording any more. The visit's audio stays on this computer: try again from History.",
      }),
    ]);
    expect(visits.at(-1)).toMatchObject({ state: 'failed', audioKept: true });
    expect(progress.at(-1)).toMatchObject({ status: 'failed', done: true });
    // It waits for the clinician: not resumed by itself every minute.
    expect(failed).toEqual([true]);
  });

  it("the service's own verdict is final: a failed note is not sent again", async () => {
    const service = scriptedService({ status: ['failed'] });
    const { deps, visits, results } = harness(service.rest);
    await deliverVisit({ sessionId: 's1', kind: 'ambient', main: leg([]) }, deps);
    expect(results[0]).toMatchObject({ status: 'failed' });
    expect(visits.at(-1)).toMatchObject({ state: 'failed', audioKept: false });
  });
});
