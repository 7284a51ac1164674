import { beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../src/main/core/app-core';
import type { Clock } from '../src/main/core/ports';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { createTestCore } from './support/test-core';

/** A clock whose beats the test fires by hand. */
function manualClock(): Clock & { tick(): void } {
  let beat: (() => void) | undefined;
  return {
    now: () => 1_700_000_000_000,
    every: (_ms, fn) => {
      beat = fn;
      return () => (beat = undefined);
    },
    after: () => () => undefined,
    tick: () => beat?.(),
  };
}

let core: AppCore;
let clock: ReturnType<typeof manualClock>;

beforeEach(async () => {
  clock = manualClock();
  core = await createTestCore({ clock });
});

describe('the app store', () => {
  it('loads app info and settings from main', async () => {
    const store = createAppStore(inProcessApi(core));
    await store.getState().loadAppInfo();
    await store.getState().loadSettings();
    expect(store.getState().appInfo).toMatchObject({ name: 'Ambient Scribe', mode: 'browser' });
    expect(store.getState().settings?.service).toEqual({ kind: 'builtin-sandbox' });
  });

  it('names a bad field before sending anything to main', async () => {
    const api = inProcessApi(core);
    const store = createAppStore(api);
    const saved = await store
      .getState()
      .saveSettings({ service: { kind: 'url', baseUrl: 'scribe.example.org' } });
    expect(saved).toBe(false);
    expect(store.getState().saveState).toBe('failed');
    expect(store.getState().fieldProblems['service.baseUrl']).toMatch(
      /^Service URL must be a full https:\/\//,
    );
    expect(api.calls).not.toContain('settings.set');
    expect(core.settings.get().service).toEqual({ kind: 'builtin-sandbox' });
  });

  it('saves a valid change in main and shows it as saved', async () => {
    const store = createAppStore(inProcessApi(core));
    const saved = await store.getState().saveSettings({ partnerId: 'clinic-3', firstRunComplete: true });
    expect(saved).toBe(true);
    expect(store.getState().saveState).toBe('saved');
    expect(store.getState().settings?.partnerId).toBe('clinic-3');
    expect(core.settings.get().partnerId).toBe('clinic-3');
  });

  it('records each heartbeat main sends, and stops listening when unbound', () => {
    const store = createAppStore(inProcessApi(core));
    const unbind = bindAppEvents(store, inProcessApi(core), () => 42);
    clock.tick();
    clock.tick();
    expect(store.getState().lastHeartbeat).toEqual({ seq: 1, at: 1_700_000_000_000 });
    expect(store.getState().lastHeartbeatReceivedAt).toBe(42);
    unbind();
    clock.tick();
    expect(store.getState().lastHeartbeat?.seq).toBe(1);
  });

  it('starts fresh for each test through getInitialState', () => {
    const store = createAppStore(inProcessApi(core));
    store.setState({ link: 'lost' });
    store.setState(store.getInitialState(), true);
    expect(store.getState().link).toBe('connecting');
  });
});

describe('privacy on a shared laptop', () => {
  const noteOf = (sessionId: string) => ({
    sessionId,
    kind: 'ambient' as const,
    status: 'completed',
    done: true,
    summary: [{ title: 'Chief complaint', content: 'Chest pain since yesterday.' }],
  });

  it('the idle lock forgets the note and the patient, and starts the next visit with a new encounter id', async () => {
    const store = createAppStore(inProcessApi(core));
    await store.getState().loadSettings();
    store.getState().editDraft({ dateOfBirth: '9 Apr 1961', sex: 'FEMALE' });
    const before = store.getState().ensureDraft().encounterId;
    store.setState({
      results: noteOf('s1'),
      resultsFor: 's1',
      patient: { sessionId: 's1', dateOfBirth: '1961-04-09', sex: 'FEMALE' },
    });
    store.getState().lockForIdle();
    expect(store.getState().locked).toBe(true);
    expect(store.getState()).toMatchObject({ results: null, resultsFor: null, patient: null });
    expect(store.getState().draft).toMatchObject({ dateOfBirth: '', sex: '' });
    expect(JSON.stringify(store.getState())).not.toContain('Chest pain');
    expect(JSON.stringify(store.getState())).not.toContain('1961');
    // The lock kept which visit was on the pane (its session ID, nothing of the patient)…
    expect(store.getState().visitToReturnTo).toBe('s1');
    await store.getState().unlock();
    expect(store.getState().locked).toBe(false);
    // …and the pane goes back to it once unlocked (issue 37), asking main for it again.
    expect(store.getState()).toMatchObject({ resultsFor: 's1', visitToReturnTo: null });
    expect(store.getState().draft?.encounterId).toMatch(/^demo\d{14}$/);
    expect(before).toMatch(/^demo\d{14}$/);
  });

  it('never locks a visit that is recording', async () => {
    const store = createAppStore(inProcessApi(core));
    await store.getState().loadSettings();
    store.getState().editDraft({ dateOfBirth: '9 Apr 1961' });
    store.setState({
      recorder: { state: 'auto-paused', elapsedMs: 60_000, speech: false, backlogMs: 0, sessionId: 's2' },
    });
    store.getState().lockForIdle();
    expect(store.getState().locked).toBe(false);
    expect(store.getState().draft?.dateOfBirth).toBe('9 Apr 1961');
  });
});
