/**
 * This computer's sound in a telehealth visit (issue 30): the patient's side of the video call.
 * One way in everywhere, `getDisplayMedia`: in browser mode the clinician picks the call's tab
 * (or a screen, where the browser shares a screen's sound) in the browser's own picker; in the
 * desktop app the main process answers the request with the system's sound, loopback
 * (main-window.ts, core/system-audio.ts). Only the sound is kept: the specification
 * allows no audio-only request, so a video track comes with it and is stopped at once.
 */
import type { SharedCall } from './capture-types';

/**
 * The shared sound: a stream with its one audio track. A class, so the capture can tell it from
 * the store's DOM-free view of it (SharedCall) without a cast.
 */
export class CallAudio implements SharedCall {
  constructor(
    readonly stream: MediaStream,
    readonly track: MediaStreamTrack,
  ) {}

  /** What the browser calls the source ("System audio" in the desktop app, a tab's title). */
  get label(): string {
    return this.track.label;
  }

  stop(): void {
    this.track.stop();
  }
}

/** A problem with the call's sound the clinician can act on: one sentence, what to do next. */
export class CallAudioError extends Error {
  constructor(
    readonly reason: 'refused' | 'no-sound' | 'unsupported',
    message: string,
  ) {
    super(message);
    this.name = 'CallAudioError';
  }
}

/**
 * The Screen Capture options TypeScript's DOM library does not have yet (W3C Screen Capture):
 * hints to the browser's picker, and the audio constraint that keeps the call audible here.
 */
interface CallCaptureOptions extends DisplayMediaStreamOptions {
  /** Offer the whole system's sound where the browser can (Windows, ChromeOS). */
  systemAudio?: 'include' | 'exclude';
  /** This app's own tab is not the call: leave it out of the picker. */
  selfBrowserSurface?: 'include' | 'exclude';
  /** Let the clinician move the sharing to another tab (the call reopened) without a new visit. */
  surfaceSwitching?: 'include' | 'exclude';
  audio: MediaTrackConstraints & { suppressLocalAudioPlayback?: boolean };
}

const OPTIONS: CallCaptureOptions = {
  video: true,
  audio: {
    // The clinician must go on hearing the patient: capturing must never mute the call.
    suppressLocalAudioPlayback: false,
    // The call's sound as the computer plays it: the calling app has already processed it, and
    // the service wants the voice as it is (the microphone's own setting, audioProcessing, is for
    // the room).
    echoCancellation: false,
    noiseSuppression: false,
    autoGainControl: false,
  },
  systemAudio: 'include',
  selfBrowserSurface: 'exclude',
  surfaceSwitching: 'include',
};

/**
 * Asks for the call's sound. Call it straight from the clinician's press of Start (or "Record the
 * call's sound"): browsers grant screen capture only to a page the user has just used.
 */
export async function openCallAudio(): Promise<CallAudio> {
  if (!navigator.mediaDevices?.getDisplayMedia) {
    throw new CallAudioError(
      'unsupported',
      'This window cannot record the computer’s sound. Record the microphone only, with the call on speaker so the microphone hears the patient.',
    );
  }
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getDisplayMedia(OPTIONS);
  } catch (error) {
    throw describeCallAudioError(error);
  }
  // Video is never kept, not even for a moment longer than it takes to stop it.
  for (const video of stream.getVideoTracks()) {
    video.stop();
    stream.removeTrack(video);
  }
  const track = stream.getAudioTracks()[0];
  if (!track) {
    throw new CallAudioError(
      'no-sound',
      'What was shared has no sound. Start again and choose the call’s tab with “Share tab audio” on (a window shares no sound; a whole screen does only on Windows).',
    );
  }
  return new CallAudio(stream, track);
}

/** getDisplayMedia's refusals, as sentences that say what to do. */
export function describeCallAudioError(error: unknown): CallAudioError {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'AbortError') {
    return new CallAudioError(
      'refused',
      'The call’s sound was not shared, so nothing was recorded. Press Start recording again and share the call’s tab or this computer’s sound, or record the microphone only.',
    );
  }
  if (name === 'NotSupportedError' || name === 'InvalidStateError' || name === 'TypeError') {
    return new CallAudioError(
      'unsupported',
      'This computer’s sound cannot be recorded here. Record the microphone only, with the call on speaker so the microphone hears the patient.',
    );
  }
  return new CallAudioError(
    'unsupported',
    'The computer’s sound could not be recorded. Try again; if it persists, record the microphone only.',
  );
}
