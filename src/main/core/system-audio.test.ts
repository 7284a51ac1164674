import { describe, expect, it } from 'vitest';
import { maySystemAudio, systemAudioSupport, withFeatures } from './system-audio';

const origin = 'app://scribe';
const ask = { securityOrigin: 'app://scribe', isMainFrame: true, audioRequested: true, videoRequested: true };

describe('where the desktop app can record this computer’s sound (issue 30)', () => {
  it('Windows: loopback with nothing switched on', () => {
    expect(systemAudioSupport('win32', '10.0.22631')).toEqual({
      loopback: true,
      enableFeatures: [],
      disableFeatures: [],
    });
  });

  it('macOS 14.2 and later through the CoreAudio tap; 13 to 14.1 through ScreenCaptureKit; 12 not at all', () => {
    for (const release of ['23.2.0', '23.6.0', '24.1.0', '25.0.0'])
      expect(systemAudioSupport('darwin', release), release).toEqual({
        loopback: true,
        enableFeatures: [],
        disableFeatures: [],
      });
    for (const release of ['22.1.0', '23.0.0', '23.1.0'])
      expect(systemAudioSupport('darwin', release), release).toEqual({
        loopback: true,
        enableFeatures: ['MacLoopbackAudioForScreenShare', 'MacSckSystemAudioLoopbackOverride'],
        disableFeatures: ['MacCatapLoopbackAudioForScreenShare'],
      });
    expect(systemAudioSupport('darwin', '21.6.0')).toMatchObject({ loopback: false, reason: /macOS 12/ });
  });

  it('Linux: the PulseAudio monitor, a feature switched on at start', () => {
    expect(systemAudioSupport('linux', '6.1.0-18-amd64')).toEqual({
      loopback: true,
      enableFeatures: ['PulseaudioLoopbackForScreenShare'],
      disableFeatures: [],
    });
    expect(systemAudioSupport('freebsd', '14.0')).toMatchObject({ loopback: false });
  });

  it('adds features to a switch without dropping or repeating what was there', () => {
    expect(withFeatures(undefined, ['A'])).toBe('A');
    expect(withFeatures('', ['A', 'B'])).toBe('A,B');
    expect(withFeatures('X,A', ['A', 'B'])).toBe('X,A,B');
  });
});

describe('who gets this computer’s sound', () => {
  const linux = systemAudioSupport('linux', '6.1.0');
  /** Settings say visits are telehealth calls, at the time of the request. */
  const chosen = { telehealth: true };
  it('the app page, in its main frame, asking for sound', () => {
    expect(maySystemAudio(ask, origin, linux, chosen)).toBe(true);
    expect(maySystemAudio({ ...ask, securityOrigin: 'app://scribe/' }, origin, linux, chosen)).toBe(true);
  });
  it.each([
    ['another origin', { ...ask, securityOrigin: 'https://evil.example' }],
    ['a subframe of the app', { ...ask, isMainFrame: false }],
    ['a request for a screen without sound', { ...ask, audioRequested: false }],
  ])('not %s', (_name, other) => {
    expect(maySystemAudio(other, origin, linux, chosen)).toBe(false);
  });
  it('nobody where the system gives no sound', () => {
    expect(maySystemAudio(ask, origin, systemAudioSupport('darwin', '21.6.0'), chosen)).toBe(false);
  });
  it('nobody while Settings say visits are in the room, as read when the page asks', () => {
    expect(maySystemAudio(ask, origin, linux, { telehealth: false })).toBe(false);
  });
});
