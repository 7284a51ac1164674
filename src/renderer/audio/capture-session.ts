import { CAPTURE_STALL_MS, SERVICE_SAMPLE_RATE } from '../../shared/audio-format';
import { CHUNK_HEADER_BYTES, writeChunkHeader } from '../../shared/contract/audio-chunk';
import { CallAudio } from './call-audio';
import { CaptureCall, initialCallState } from './capture-call';
import { CallEchoDetector } from './call-echo';
import { startCaptureGraph, type CaptureGraph } from './capture-graph';
import { chooseMicrophone, isStillConnected } from './device-choice';
import { NoSignalDetector, measureLevel, type AudioLevel } from './level-meter';
import type { CaptureDeps, CaptureSession, CaptureStatus, ChunkClassifier } from './capture-types';
import { MicrophoneError, listInputs, openMicrophone, type OpenedMicrophone } from './microphone';

/** End's wait for the capture path is shown once it lasts this long (a quiet machine's is ms). */
const FINISHING_SHOWN_AFTER_MS = 250;

/** A chunk's sources' levels, read as it arrived (telehealth); undefined in a visit in the room. */
type SourceLevels = ReturnType<CaptureGraph['sourceLevels']> | undefined;

/**
 * One recording's microphone, and in a telehealth visit the call's sound mixed with it (issue 30):
 * opens it, runs the worklet, classifies each chunk's speech, fills in the chunk header (sequence
 * number, capture time, speech flag) and sends it to main. Follows the microphone across hot-plugs
 * (falling back to the default with a notice, and back again when the chosen one returns), reports
 * levels ten times a second (each source's in a telehealth visit), digital silence, capture stalls
 * and the call's sound ending. It decides nothing about pausing: that is main's (DESIGN.md,
 * "policy in main, signal in the renderer").
 */
export async function startCapture(deps: CaptureDeps): Promise<CaptureSession> {
  const now = deps.now ?? Date.now;
  const stallMs = deps.stallMs ?? CAPTURE_STALL_MS;
  const noSignal = new NoSignalDetector();
  const telehealth = deps.settings.visitAudio === 'telehealth';
  const initialCall = deps.call instanceof CallAudio ? deps.call : undefined;
  let status: CaptureStatus = {
    state: 'starting',
    voiceDetection: 'loading',
    noSignal: false,
    ...(telehealth ? { call: initialCallState(initialCall) } : {}),
  };
  const report = (patch: Partial<CaptureStatus>) => {
    status = { ...status, ...patch };
    deps.onStatus(status);
  };
  report({});

  // The voice model loads while the microphone opens (in the app it loads in a worker, off this
  // thread: vad/speech-worker.ts); the chunks captured before it is ready go out as speech.
  /** The voice model once it is ready; until then (a visit's first seconds) undefined. */
  let detectorReady: ChunkClassifier | undefined;
  const classifier = Promise.resolve()
    .then(deps.loadClassifier)
    .then(
      (loaded) => {
        // Chunks may have queued while a model made on this thread (no worker: tests) loaded: no stall.
        lastChunkAt = now();
        detectorReady = loaded;
        report({ voiceDetection: 'ready' });
        return loaded;
      },
      () => {
        report({ voiceDetection: 'unavailable' });
        return undefined;
      },
    );

  let microphone = deps.settings.microphone;
  let seq = 0;
  let stopped = false;
  let mic: OpenedMicrophone | undefined;
  let graph: CaptureGraph | undefined;
  let lastChunkAt = now();
  let pipeline: Promise<void> = Promise.resolve();
  const echo = new CallEchoDetector();
  const call = new CaptureCall(
    () => graph,
    (state) => {
      // Another call, or none: what the microphone heard of the last one says nothing of the next.
      echo.reset();
      report({ call: state, callEcho: false });
    },
    initialCall,
  );

  async function handle(
    message: ArrayBuffer,
    capturedAt: number,
    final: boolean,
    release: (message: ArrayBuffer) => void,
    sources: SourceLevels,
  ): Promise<void> {
    const samples = new Int16Array(message, CHUNK_HEADER_BYTES);
    // The meter and the dead-microphone warning are about the microphone: in a telehealth visit its
    // own level, in the room the chunk's (it is the microphone alone).
    const level: AudioLevel = sources?.microphone ?? measureLevel(samples);
    // Without voice detection every chunk counts as speech: the recording never auto-pauses, but
    // no word is lost. That includes the chunks of a rejoined visit captured while its model still
    // loads: they go out at once rather than wait for it. Held back, they stopped the visit's clock
    // and reached main only after the model, seconds later on a busy machine, long enough to count
    // as a stalled microphone, and End waited for the model too (issue 36, issue 37's reload).
    const detector = detectorReady;
    let verdict: { speech: boolean; probability?: number } = { speech: true };
    if (detector) {
      // A failed classification must not cost the chunk: it goes out flagged as speech.
      verdict = await detector.classify(toFloat(samples)).catch(() => ({ speech: true }));
    }
    writeChunkHeader(message, {
      seq: seq++,
      capturedAt,
      speech: verdict.speech,
      ...(final ? { final } : {}),
      ...(verdict.probability !== undefined ? { speechProbability: verdict.probability } : {}),
    });
    deps.sendChunk(message);
    release(message);
    deps.onLevel({ ...level, speech: verdict.speech, ...(sources ? { call: sources.call } : {}) });
    if (sources) {
      const heard = echo.update(level.rmsDbfs, sources.call?.rmsDbfs ?? null);
      if (heard !== (status.callEcho ?? false)) report({ callEcho: heard });
    }
    const silent = noSignal.update(level, (samples.length / SERVICE_SAMPLE_RATE) * 1_000);
    if (silent !== status.noSignal) report({ noSignal: silent });
  }

  async function open(): Promise<void> {
    let opened: OpenedMicrophone | undefined;
    const openStream = async () => {
      await deps.microphoneMayOpen;
      opened = await openMicrophone({ microphone, audioProcessing: deps.settings.audioProcessing });
      return opened.stream;
    };
    const started = now();
    // Chunks can arrive before startCaptureGraph returns; until then buffers are not recycled.
    const slot: { graph?: CaptureGraph } = {};
    const release = (message: ArrayBuffer) => slot.graph?.release(message);
    const built = await startCaptureGraph(openStream, {
      ...(deps.contextSampleRate ? { contextSampleRate: deps.contextSampleRate } : {}),
      separateLevels: telehealth,
      ...(deps.onPressNeeded ? { onPressNeeded: deps.onPressNeeded } : {}),
      onChunk: (message, { endTime, audioSamples, final }) => {
        lastChunkAt = now();
        if (status.state === 'stalled') report({ state: 'recording' });
        const capturedAt = started + endTime * 1_000 - (audioSamples / SERVICE_SAMPLE_RATE) * 1_000;
        // Read now, as the chunk arrives: the sources' analysers hold the audio it was made of.
        const sources = telehealth ? slot.graph?.sourceLevels() : undefined;
        pipeline = pipeline
          .then(() => handle(message, capturedAt, final, release, sources))
          .catch((error: unknown) => console.error('capture: a chunk could not be sent', error));
      },
    }).catch((error: unknown) => {
      opened?.track.stop();
      throw error;
    });
    slot.graph = built;
    call.mixInto(built);
    const microphoneOpened = opened!;
    mic = microphoneOpened;
    graph = built;
    lastChunkAt = now();
    microphoneOpened.track.addEventListener('ended', () => void switchMicrophone());
    noSignal.reset();
    report({
      state: 'recording',
      device: microphoneOpened.device,
      noSignal: false,
      ...(microphoneOpened.notice ? { notice: microphoneOpened.notice } : { notice: undefined }),
    });
  }

  async function close(): Promise<void> {
    const [oldGraph, oldMic] = [graph, mic];
    graph = undefined;
    mic = undefined;
    oldMic?.track.stop();
    await oldGraph?.close().catch(() => undefined);
  }

  /**
   * After a hot-plug or a new choice: reopen if the device in use is gone, or a different one is
   * wanted now (the remembered one came back, or the clinician picked another).
   */
  // One switch at a time; a request that arrives during one (a new choice while a hot-plug is being
  // handled) runs again afterwards instead of being dropped.
  let switching: Promise<void> | undefined;
  let switchAgain = false;
  function switchMicrophone(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (switching) {
      switchAgain = true;
      return switching;
    }
    switching = (async () => {
      do {
        switchAgain = false;
        await switchOnce();
      } while (switchAgain && !stopped);
    })().finally(() => {
      switching = undefined;
    });
    return switching;
  }

  async function switchOnce(): Promise<void> {
    try {
      const inputs = await listInputs();
      const current = mic?.device.deviceId ?? '';
      const wanted = chooseMicrophone(microphone, inputs);
      const wantedId = wanted.kind === 'chosen' ? wanted.device.deviceId : '';
      const gone = current !== '' && !isStillConnected(current, inputs);
      if (!gone && wantedId === mic?.requestedDeviceId && mic.track.readyState === 'live') return;
      await close();
      await open();
    } catch (error) {
      report({ state: 'failed', notice: (error as Error).message });
    }
  }

  const onDeviceChange = () => void switchMicrophone();
  const watchdog = setInterval(() => {
    if (!stopped && status.state === 'recording' && now() - lastChunkAt > stallMs)
      report({ state: 'stalled' });
  }, stallMs / 4);

  try {
    // The microphone opens at once, at Start as after a reload: every ms of waiting is audio the
    // clinician said and the recording does not have. When the model loaded first, on the page's
    // main thread, the microphone stayed closed for 5.8 s beside two other tests' Chromiums while
    // the pane said Recording (issue 36). In the worker its creation no longer holds this thread.
    await open();
    // Hot-plugs are followed once the first microphone is open (Chromium also reports a device
    // change when permission reveals the device names, which must not race the first open).
    navigator.mediaDevices.addEventListener('devicechange', onDeviceChange);
  } catch (error) {
    clearInterval(watchdog);
    navigator.mediaDevices.removeEventListener('devicechange', onDeviceChange);
    call.stop();
    void classifier.then((c) => c?.dispose());
    const message =
      error instanceof MicrophoneError ? error.message : 'The microphone could not be started. Try again.';
    report({ state: 'failed', notice: message });
    throw error instanceof MicrophoneError ? error : new MicrophoneError('unsupported', message);
  }

  return {
    get chunksSent() {
      return seq;
    },
    async useMicrophone(choice) {
      microphone = choice;
      await switchMicrophone();
    },
    useCall(shared) {
      if (stopped || !telehealth || !(shared instanceof CallAudio)) {
        shared.stop();
        return;
      }
      call.use(shared);
    },
    async stop(options = {}) {
      if (stopped) return;
      stopped = true;
      clearInterval(watchdog);
      navigator.mediaDevices.removeEventListener('devicechange', onDeviceChange);
      // A microphone switch in progress finishes first: the microphone it opens is then closed
      // here with the rest (stopping in the middle of it left that one open after the visit).
      await switching?.catch(() => undefined);
      // End: the audio the microphone heard up to the press, what is still in the capture path
      // included, is the visit's last moment (a last word): it goes out as a final, shorter chunk.
      // On a busy machine that takes a moment (bounded by DRAIN_LIMIT_MS), and the window says so.
      if (options.sendTail && graph) {
        const shown = setTimeout(() => report({ state: 'finishing' }), FINISHING_SHOWN_AFTER_MS);
        await graph.flush();
        clearTimeout(shown);
      }
      await close();
      call.stop();
      // Chunks already in the pipeline are classified and sent before the recording ends.
      await pipeline;
      // A model still loading is disposed of when it arrives: End does not wait for it.
      void classifier.then((loaded) => loaded?.dispose());
      report({ state: 'stopped' });
    },
  };
}

function toFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let k = 0; k < samples.length; k++) out[k] = samples[k]! / 32_768;
  return out;
}
