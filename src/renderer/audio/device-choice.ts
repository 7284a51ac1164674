/** The part of a MediaDeviceInfo the choice needs (tests build these by hand). */
export interface InputDevice {
  deviceId: string;
  label: string;
}

/** The remembered microphone (settings.microphone); deviceId '' means the system default. */
export interface RememberedMicrophone {
  deviceId: string;
  label: string;
}

export type MicrophoneChoice =
  /** Record from the system default input (nothing chosen, or nothing chosen is present). */
  | { kind: 'default' }
  /** The remembered device, found by id or, when the id changed (browsers rotate them), by label. */
  | { kind: 'chosen'; device: InputDevice; matchedBy: 'id' | 'label' }
  /** The remembered device is not connected: record from the default and say so. */
  | { kind: 'fallback'; missing: RememberedMicrophone };

/** Chrome lists the default input twice, once as the pseudo-device "default". */
const PSEUDO_DEVICES = new Set(['default', 'communications']);

/**
 * Real input devices, without the default/communications aliases, and without the id-less
 * placeholder a browser lists before microphone permission is granted.
 */
export function realInputs(devices: readonly InputDevice[]): InputDevice[] {
  return devices.filter((d) => d.deviceId !== '' && !PSEUDO_DEVICES.has(d.deviceId));
}

/**
 * Which microphone to open: the remembered one by deviceId; else one with the same label (device
 * ids change when the browser's storage is cleared or the device moves port); else the default,
 * flagged as a fallback so the clinician is told their microphone is missing.
 */
export function chooseMicrophone(
  remembered: RememberedMicrophone,
  devices: readonly InputDevice[],
): MicrophoneChoice {
  if (remembered.deviceId === '' || PSEUDO_DEVICES.has(remembered.deviceId)) return { kind: 'default' };
  const inputs = realInputs(devices);
  const byId = inputs.find((d) => d.deviceId === remembered.deviceId);
  if (byId) return { kind: 'chosen', device: byId, matchedBy: 'id' };
  // Labels are empty until microphone permission is granted; an empty label matches nothing.
  const byLabel = remembered.label === '' ? undefined : inputs.find((d) => d.label === remembered.label);
  if (byLabel) return { kind: 'chosen', device: byLabel, matchedBy: 'label' };
  return { kind: 'fallback', missing: remembered };
}

/** Whether the device being recorded from is still connected (after a devicechange). */
export function isStillConnected(deviceId: string, devices: readonly InputDevice[]): boolean {
  return devices.some((d) => d.deviceId === deviceId);
}

/** One sentence for the clinician when their microphone is missing. */
export function fallbackNotice(missing: RememberedMicrophone): string {
  const name = missing.label === '' ? 'The chosen microphone' : `The microphone “${missing.label}”`;
  return `${name} is not connected, so the app is recording from the system’s default microphone. Plug it back in or choose another microphone.`;
}
