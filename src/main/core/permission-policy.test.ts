import { describe, expect, it } from 'vitest';
import { mayHave, mayRequest } from './permission-policy';

const origin = 'app://scribe';
const ours = { from: 'app://scribe/index.html', isMainFrame: true };
const room = { telehealth: false };
const telehealth = { telehealth: true };

describe('permission requests', () => {
  it('grants the microphone, audio only, and clipboard writes to the app page', () => {
    for (const visit of [room, telehealth]) {
      expect(mayRequest({ ...ours, permission: 'media', mediaTypes: ['audio'] }, origin, visit)).toBe(true);
      expect(mayRequest({ ...ours, permission: 'clipboard-sanitized-write' }, origin, visit)).toBe(true);
    }
  });
  it('lets the app page ask for a call’s sound (getDisplayMedia names no device) in a telehealth visit only, which system-audio.ts then answers', () => {
    const display = { ...ours, permission: 'media', mediaTypes: [] };
    expect(mayRequest(display, origin, telehealth)).toBe(true);
    // In the room a request naming no device is refused: a legacy desktop getUserMedia looks the
    // same, and Electron would answer it with the screen.
    expect(mayRequest(display, origin, room)).toBe(false);
    expect(mayRequest({ ...display, from: 'https://evil.example/' }, origin, telehealth)).toBe(false);
    expect(mayRequest({ ...display, isMainFrame: false }, origin, telehealth)).toBe(false);
  });
  it.each([
    ['the camera', { ...ours, permission: 'media', mediaTypes: ['audio', 'video'] }],
    ['media without its types', { ...ours, permission: 'media' }],
    ['reading the clipboard', { ...ours, permission: 'clipboard-read' }],
    ['anything else', { ...ours, permission: 'geolocation' }],
    [
      'a page of another origin',
      { ...ours, from: 'https://evil.example/', permission: 'media', mediaTypes: ['audio'] },
    ],
    ['a subframe of the app', { ...ours, isMainFrame: false, permission: 'media', mediaTypes: ['audio'] }],
    ['a frame that is gone', { ...ours, from: undefined, permission: 'clipboard-sanitized-write' }],
  ])('refuses %s, in the room and in a telehealth visit', (_name, ask) => {
    expect(mayRequest(ask, origin, room)).toBe(false);
    expect(mayRequest(ask, origin, telehealth)).toBe(false);
  });
});

describe('permission checks', () => {
  it('says yes for the microphone and clipboard writes of the app page', () => {
    expect(mayHave({ ...ours, from: origin, permission: 'media', mediaType: 'audio' }, origin)).toBe(true);
    expect(mayHave({ ...ours, from: origin, permission: 'media' }, origin)).toBe(true);
    expect(mayHave({ ...ours, from: origin, permission: 'clipboard-sanitized-write' }, origin)).toBe(true);
  });
  it.each([
    ['a camera', { ...ours, permission: 'media', mediaType: 'video' }],
    ['other capture (a screen)', { ...ours, permission: 'media', mediaType: 'unknown' }],
    ['reading the clipboard', { ...ours, permission: 'clipboard-read' }],
    ['another origin', { ...ours, from: 'http://127.0.0.1:9', permission: 'media', mediaType: 'audio' }],
    ['a subframe', { ...ours, isMainFrame: false, permission: 'media', mediaType: 'audio' }],
  ])('says no for %s', (_name, ask) => {
    expect(mayHave(ask, origin)).toBe(false);
  });
});
