import { originOf } from './sender-policy';

/**
 * Electron security checklist, "Handle session permission requests from remote content": what
 * the app's own page, in its main frame, may use. The microphone, for audio only (never the
 * camera), a telehealth visit's call (getDisplayMedia, which setDisplayMediaRequestHandler then
 * answers with the system's sound alone: system-audio.ts), and writing to the clipboard (Copy on
 * the note, which Chromium asks for as 'clipboard-sanitized-write' before every
 * navigator.clipboard.writeText). Nothing else, and nothing at all for another origin or a
 * subframe. Reading the clipboard stays refused.
 */
export interface PermissionAsk {
  /** Electron's permission name ('media', 'clipboard-sanitized-write', 'geolocation', ...). */
  permission: string;
  /** The asking frame's URL (a request) or origin (a check). */
  from: string | undefined;
  isMainFrame: boolean;
}

/**
 * session.setPermissionRequestHandler: `mediaTypes` is what a media request wants. `telehealth`:
 * the visit audio setting is Telehealth now, so the page may ask for the call's sound.
 */
export function mayRequest(
  ask: PermissionAsk & { mediaTypes?: readonly string[] },
  appOrigin: string,
  { telehealth }: { telehealth: boolean },
): boolean {
  if (!isOurPage(ask, appOrigin)) return false;
  if (ask.permission === 'media') {
    // A request without the list at all is not one Electron makes, and is refused.
    if (ask.mediaTypes === undefined) return false;
    // A getDisplayMedia request names no device type (Electron lists only microphones and cameras,
    // web_contents_permission_helper.cc), and the display-media handler then decides what it gets
    // (system-audio.ts: the sound, never a screen). But a legacy getUserMedia with
    // chromeMediaSource 'desktop' names none either, and Electron answers that one itself, with
    // the screen, once it is let through here (MediaAccessAllowed). The two cannot be told apart
    // here, so neither is let through unless the clinician chose Telehealth: in the room, the
    // default, the page can capture nothing but the microphone, as before issue 30.
    if (ask.mediaTypes.length === 0) return telehealth;
    return ask.mediaTypes.every((type) => type === 'audio');
  }
  return ask.permission === 'clipboard-sanitized-write';
}

/**
 * session.setPermissionCheckHandler: `mediaType` is 'audio' for the microphone (enumerating it with
 * its name, say), 'video' for a camera, 'unknown' for other capture (a screen); a check that does
 * not say which is about the microphone permission the request handler already limits to audio.
 */
export function mayHave(ask: PermissionAsk & { mediaType?: string }, appOrigin: string): boolean {
  if (!isOurPage(ask, appOrigin)) return false;
  if (ask.permission === 'media') return ask.mediaType === undefined || ask.mediaType === 'audio';
  return ask.permission === 'clipboard-sanitized-write';
}

function isOurPage(ask: PermissionAsk, appOrigin: string): boolean {
  return ask.isMainFrame && originOf(ask.from) === appOrigin;
}
