import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announcement, COPIED_MS, createCopyConfirmation, NOT_COPIED_MS } from './copy-confirmation';

describe('the one copy confirmation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows at the control that copied, and clears by itself after about two seconds', () => {
    const store = createCopyConfirmation();
    store.getState().confirm('plan', 'copied', 'Plan');
    expect(store.getState().shown).toMatchObject({ control: 'plan', outcome: 'copied' });
    expect(announcement(store.getState().shown)).toBe('Copied: Plan.');
    vi.advanceTimersByTime(COPIED_MS - 1);
    expect(store.getState().shown?.control).toBe('plan');
    vi.advanceTimersByTime(1);
    expect(store.getState().shown).toBeNull();
    expect(announcement(store.getState().shown)).toBe('');
    expect(COPIED_MS).toBe(2_000);
  });

  it('is replaced by a copy anywhere else, which gets its own full time', () => {
    const store = createCopyConfirmation();
    store.getState().confirm('plan', 'copied', 'Plan');
    vi.advanceTimersByTime(1_500);
    store.getState().confirm('all', 'copied', 'all of the note');
    // Only the last copy is on the clipboard: only its control says Copied.
    expect(store.getState().shown?.control).toBe('all');
    // The first copy's timer does not cut the second one short.
    vi.advanceTimersByTime(1_000);
    expect(store.getState().shown?.control).toBe('all');
    vi.advanceTimersByTime(COPIED_MS - 1_000);
    expect(store.getState().shown).toBeNull();
  });

  it('says the same copy again in new words, so a screen reader speaks it again', () => {
    const store = createCopyConfirmation();
    store.getState().confirm('plan', 'copied', 'Plan');
    const first = announcement(store.getState().shown);
    store.getState().confirm('plan', 'copied', 'Plan');
    const second = announcement(store.getState().shown);
    expect(second).not.toBe(first);
    expect(second.trim()).toBe(first);
  });

  it('keeps a refused copy’s way out on screen long enough to read', () => {
    const store = createCopyConfirmation();
    store.getState().confirm('form', 'failed', 'Vital signs');
    expect(announcement(store.getState().shown)).toBe(
      'Could not copy Vital signs: select the text and copy it by hand.',
    );
    vi.advanceTimersByTime(NOT_COPIED_MS - 1);
    expect(store.getState().shown?.outcome).toBe('failed');
    vi.advanceTimersByTime(1);
    expect(store.getState().shown).toBeNull();
  });
});
