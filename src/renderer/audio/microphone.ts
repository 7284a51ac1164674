import type { Settings } from '../../shared/settings';
import { chooseMicrophone, fallbackNotice, realInputs, type InputDevice } from './device-choice';

export interface OpenedMicrophone {
  stream: MediaStream;
  track: MediaStreamTrack;
  /** The device actually opened (the default's real id when none was chosen). */
  device: InputDevice;
  /** The device id that was asked for ('' = the system default, also when falling back). */
  requestedDeviceId: string;
  /** Set when the remembered microphone was missing and the default was opened instead. */
  notice?: string;
}

/** A microphone problem the clinician can act on: one sentence, what happened and what to do. */
export class MicrophoneError extends Error {
  constructor(
    readonly reason: 'denied' | 'missing' | 'busy' | 'unsupported',
    message: string,
  ) {
    super(message);
    this.name = 'MicrophoneError';
  }
}

/** Audio inputs the browser knows of (labels are blank until permission is granted). */
export async function listInputs(): Promise<InputDevice[]> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  return realInputs(
    devices.filter((d) => d.kind === 'audioinput').map((d) => ({ deviceId: d.deviceId, label: d.label })),
  );
}

/**
 * Opens the remembered microphone (or the default, with a notice when the remembered one is gone),
 * mono, with the browser's voice processing as the settings say (off by default).
 */
export async function openMicrophone(
  settings: Pick<Settings, 'microphone' | 'audioProcessing'>,
): Promise<OpenedMicrophone> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new MicrophoneError(
      'unsupported',
      'This window cannot use a microphone. Restart the app; if it persists, tell your IT team.',
    );
  }
  const remembered = settings.microphone;
  let inputs = await listInputs().catch(() => []);
  if (inputs.length === 0 && remembered.deviceId !== '') {
    // Before microphone permission the browser lists no device ids, so nothing can be matched yet:
    // ask for the remembered id as a preference (which also grants permission), then look again.
    const first = await getTrack(settings, { ideal: remembered.deviceId });
    inputs = await listInputs().catch(() => []);
    const choice = chooseMicrophone(remembered, inputs);
    if (choice.kind !== 'chosen' || choice.device.deviceId === first.device.deviceId) {
      return {
        ...first,
        requestedDeviceId: choice.kind === 'chosen' ? choice.device.deviceId : '',
        ...noticeFor(choice),
      };
    }
    first.track.stop();
  }
  const choice = chooseMicrophone(remembered, inputs);
  const opened = await getTrack(
    settings,
    choice.kind === 'chosen' ? { exact: choice.device.deviceId } : undefined,
  );
  return {
    ...opened,
    requestedDeviceId: choice.kind === 'chosen' ? choice.device.deviceId : '',
    ...noticeFor(choice),
  };
}

function noticeFor(choice: ReturnType<typeof chooseMicrophone>): { notice?: string } {
  return choice.kind === 'fallback' ? { notice: fallbackNotice(choice.missing) } : {};
}

async function getTrack(
  settings: Pick<Settings, 'audioProcessing'>,
  deviceId: ConstrainDOMString | undefined,
): Promise<Omit<OpenedMicrophone, 'requestedDeviceId'>> {
  const constraints: MediaTrackConstraints = {
    channelCount: { ideal: 1 },
    echoCancellation: settings.audioProcessing.echoCancellation,
    noiseSuppression: settings.audioProcessing.noiseSuppression,
    autoGainControl: settings.audioProcessing.autoGainControl,
    ...(deviceId ? { deviceId } : {}),
  };
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: constraints, video: false });
  } catch (error) {
    throw describeMicrophoneError(error);
  }
  const track = stream.getAudioTracks()[0];
  if (!track)
    throw new MicrophoneError('missing', 'No microphone was found. Connect a microphone and try again.');
  return { stream, track, device: { deviceId: track.getSettings().deviceId ?? '', label: track.label } };
}

/** getUserMedia's DOMExceptions, as sentences that say what to do. */
export function describeMicrophoneError(error: unknown): MicrophoneError {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return new MicrophoneError(
        'denied',
        'The app is not allowed to use the microphone. Allow microphone access for Ambient Scribe in your system’s privacy settings, then try again.',
      );
    case 'NotFoundError':
    case 'OverconstrainedError':
      return new MicrophoneError('missing', 'No microphone was found. Connect a microphone and try again.');
    case 'NotReadableError':
    case 'AbortError':
      return new MicrophoneError(
        'busy',
        'The microphone could not be started; another app may be using it. Close other apps that use the microphone, then try again.',
      );
    default:
      return new MicrophoneError(
        'unsupported',
        'The microphone could not be started. Try again; if it persists, restart the app.',
      );
  }
}

/**
 * Whether a visit can have the microphone, asked before the visit is created (issue 17: a refused
 * or missing microphone is said once, and no visit starts). Where the window already has the
 * permission (the desktop app grants it to its own page) nothing is opened: only that a microphone
 * is there is checked, so the recording opens the device once, as before. Refused: said at once.
 * Not yet asked: the microphone is opened to ask, and held until the recording's own stream is
 * open (the returned release), so the device is not stopped and started again in between.
 */
export async function ensureMicrophoneAccess(
  settings: Pick<Settings, 'microphone' | 'audioProcessing'>,
): Promise<() => void> {
  const permission = await navigator.permissions
    ?.query({ name: 'microphone' as PermissionName })
    .then((status) => status.state)
    .catch(() => undefined);
  if (permission === 'denied') throw describeMicrophoneError(new DOMException('refused', 'NotAllowedError'));
  if (permission === 'granted') {
    if ((await listInputs().catch(() => [])).length === 0)
      throw new MicrophoneError('missing', 'No microphone was found. Connect a microphone and try again.');
    return () => undefined;
  }
  const { track } = await openMicrophone(settings);
  return () => track.stop();
}
