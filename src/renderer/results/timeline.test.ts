import { describe, expect, it } from 'vitest';
import { timelineSteps, waitElapsedMs } from './timeline';

const states = (input: Parameters<typeof timelineSteps>[0]) =>
  timelineSteps(input).map((s) => `${s.label}:${s.state}`);

describe('the results timeline', () => {
  it('shows the last audio going out until main reports the service status', () => {
    expect(states({ kind: 'ambient', recorderState: 'ending', status: undefined })).toEqual([
      'Visit ended:done',
      'Sending the last audio:active',
      'Service writing the note:pending',
      'Note ready:pending',
    ]);
  });

  it('counts any status that is not terminal, even one it does not know, as the service working', () => {
    for (const status of ['processing', 'created', 'summarizing_v2']) {
      expect(states({ kind: 'ambient', recorderState: 'ended', status })).toEqual([
        'Visit ended:done',
        'Sending the last audio:done',
        'Service writing the note:active',
        'Note ready:pending',
      ]);
    }
    // Between the audio's end and main's first report the service is working, not uploading.
    expect(states({ kind: 'ambient', recorderState: 'ended', status: undefined })[2]).toBe(
      'Service writing the note:active',
    );
  });

  it('ends in the outcome, with skipped and failed marked as problems', () => {
    expect(states({ kind: 'ambient', recorderState: 'ended', status: 'completed' }).slice(2)).toEqual([
      'Service writing the note:done',
      'Note ready:done',
    ]);
    expect(states({ kind: 'ambient', recorderState: 'ended', status: 'skipped' })[3]).toBe(
      'Note skipped: no usable speech:problem',
    );
    expect(states({ kind: 'ambient', recorderState: 'ended', status: 'failed' })[3]).toBe(
      'Note failed:problem',
    );
    expect(states({ kind: 'form', recorderState: 'ended', status: 'completed' }).slice(2)).toEqual([
      'Service filling the forms:done',
      'Forms ready:done',
    ]);
  });
});

describe('the wait shown while the service works', () => {
  it('counts from End, and advances between reports on the renderer clock', () => {
    expect(waitElapsedMs({ endedAt: 1_000, now: 4_500 })).toBe(3_500);
    // Main's figure starts later (when polling starts): it never pulls the count back.
    const progress = { elapsedMs: 1_000, done: false };
    expect(waitElapsedMs({ endedAt: 1_000, progress, progressAt: 4_000, now: 6_000 })).toBe(5_000);
    // Without End seen here (a reload), main's figure plus the time since its report.
    expect(waitElapsedMs({ progress, progressAt: 4_000, now: 6_000 })).toBe(3_000);
  });

  it('stops at the report that says the wait is over', () => {
    const progress = { elapsedMs: 9_000, done: true };
    expect(waitElapsedMs({ endedAt: 0, progress, progressAt: 9_200, now: 60_000 })).toBe(9_200);
    expect(waitElapsedMs({ now: 5 })).toBe(0);
  });
});
