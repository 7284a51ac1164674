import { describe, expect, it } from 'vitest';
import type { RecorderView } from '../../../shared/contract';
import { paceRecorderViews } from './recorder-view-pacing';

const view = (patch: Partial<RecorderView>): RecorderView => ({
  state: 'streaming',
  elapsedMs: 0,
  speech: false,
  backlogMs: 0,
  sessionId: 's1',
  encounterId: 'e1',
  ...patch,
});

describe('pacing the recorder views for the window', () => {
  it('sends the first view, then one per second of recording, not one per chunk', () => {
    const sent: RecorderView[] = [];
    const pace = paceRecorderViews((v) => sent.push(v));
    for (let ms = 0; ms <= 3_000; ms += 100) pace(view({ elapsedMs: ms, speech: ms % 300 === 0 }));
    expect(sent.map((v) => v.elapsedMs)).toEqual([0, 1_000, 2_000, 3_000]);
  });

  it('sends any change the window shows at once: state, reason, notice, a new visit', () => {
    const sent: RecorderView[] = [];
    const pace = paceRecorderViews((v) => sent.push(v));
    pace(view({ elapsedMs: 4_100 }));
    pace(view({ elapsedMs: 4_200, state: 'auto-paused', pauseReason: 'no-speech' }));
    pace(view({ elapsedMs: 4_300, state: 'auto-paused', pauseReason: 'no-speech', notice: 'disk full' }));
    pace(view({ elapsedMs: 4_400, state: 'auto-paused', pauseReason: 'no-speech', notice: 'disk full' }));
    pace(view({ elapsedMs: 100, sessionId: 's2' }));
    expect(sent.map((v) => v.elapsedMs)).toEqual([4_100, 4_200, 4_300, 100]);
  });

  it("follows the backlog's whole seconds, and says when it is gone", () => {
    const sent: RecorderView[] = [];
    const pace = paceRecorderViews((v) => sent.push(v));
    for (const backlogMs of [2_500, 2_300, 1_900, 1_200, 800, 300, 0, 0])
      pace(view({ elapsedMs: 10_000, backlogMs }));
    expect(sent.map((v) => v.backlogMs)).toEqual([2_500, 1_900, 800, 0]);
  });
});
