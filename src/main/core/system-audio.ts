import { originOf } from './sender-policy';

/**
 * This computer's sound for a telehealth visit (issue 30), the main process's half: where
 * Electron can give the window the system's sound (loopback) through getDisplayMedia, what
 * Chromium must be told at start for it, and which requests get it. From Electron's docs
 * (docs/api/session.md `setDisplayMediaRequestHandler`, docs/api/desktop-capturer.md) and, for the
 * Chromium features Electron does not document, what electron-audio-loopback sets
 * (docs/telehealth.md says why that package is not a dependency).
 */
export interface SystemAudioSupport {
  /** Whether a granted request gets the system's sound ('loopback') on this computer. */
  loopback: boolean;
  /** Chromium features to switch on and off before the app is ready (they are read at start). */
  enableFeatures: string[];
  disableFeatures: string[];
  /** Why not, when not: for the log. */
  reason?: string;
}

/** macOS's version from the Darwin kernel's (os.release()): Darwin 22 is macOS 13, 23.2 is 14.2. */
function darwinVersion(release: string): [number, number] {
  const [major = 0, minor = 0] = release.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return [major, minor];
}

export function systemAudioSupport(platform: string, osRelease: string): SystemAudioSupport {
  const none = { enableFeatures: [], disableFeatures: [] };
  switch (platform) {
    case 'win32':
      // "Specifying a loopback device will capture system audio, and is currently only supported
      // on Windows" (session.md): WASAPI loopback, nothing to switch on.
      return { loopback: true, ...none };
    case 'darwin': {
      const [major, minor] = darwinVersion(osRelease);
      // macOS 14.2 and later: Chromium's CoreAudio tap, the default since Electron 39
      // (desktop-capturer.md); it needs NSAudioCaptureUsageDescription in Info.plist
      // (electron-builder.yml), or the stream is silent without an error.
      if (major > 23 || (major === 23 && minor >= 2)) return { loopback: true, ...none };
      // macOS 13 to 14.1 have no CoreAudio tap, and "there is no fallback": ScreenCaptureKit's
      // loopback instead, with the Screen & System Audio Recording permission.
      if (major >= 22)
        return {
          loopback: true,
          enableFeatures: ['MacLoopbackAudioForScreenShare', 'MacSckSystemAudioLoopbackOverride'],
          disableFeatures: ['MacCatapLoopbackAudioForScreenShare'],
        };
      return {
        loopback: false,
        ...none,
        reason: 'macOS 12 and earlier give apps no system sound (desktop-capturer.md)',
      };
    }
    case 'linux':
      // The default output's monitor, through PulseAudio (or PipeWire's PulseAudio server): a
      // Chromium feature that is off by default, and that Electron's docs do not name.
      return { loopback: true, enableFeatures: ['PulseaudioLoopbackForScreenShare'], disableFeatures: [] };
    default:
      return { loopback: false, ...none, reason: `no system sound on ${platform}` };
  }
}

/** A feature-list switch's value with `features` added, keeping what was there, each once. */
export function withFeatures(existing: string | undefined, features: readonly string[]): string {
  const listed = (existing ?? '').split(',').filter((name) => name !== '');
  return [...new Set([...listed, ...features])].join(',');
}

/** A getDisplayMedia request as setDisplayMediaRequestHandler describes it. */
export interface DisplayMediaAsk {
  securityOrigin: string;
  /** The asking frame is the window's top frame (request.frame with no parent). */
  isMainFrame: boolean;
  audioRequested: boolean;
  videoRequested: boolean;
}

/**
 * Electron security checklist, "Handle session permission requests from remote content": only
 * the app's own page, in its main frame, asking for sound, gets this computer's sound, only where
 * Electron can give it, and only while Settings say visits are telehealth calls: `telehealth` is
 * the setting read at the time of the request (issue 39, item 9), not when the window opened.
 * Anything else (another origin, a subframe, a video-only request: the app never shares a screen;
 * a visit in the room) is refused.
 */
export function maySystemAudio(
  ask: DisplayMediaAsk,
  appOrigin: string,
  support: SystemAudioSupport,
  { telehealth }: { telehealth: boolean },
): boolean {
  return (
    telehealth &&
    support.loopback &&
    ask.isMainFrame &&
    ask.audioRequested &&
    originOf(ask.securityOrigin) === appOrigin
  );
}
