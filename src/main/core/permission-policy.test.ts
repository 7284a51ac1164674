import { describe, expect, it } from 'vitest';
import { mayHave, mayRequest } from './permission-policy';

const origin = 'app://scribe';
const ours = { from: 'app://scribe/index.html', isMainFrame: true };

describe('permission requests', () => {
  it('grants the microphone, audio only, and clipboard writes to the app page', () => {
    expect(mayRequest({ ...ours, permission: 'media', mediaTypes: ['audio'] }, origin)).toBe(true);
    expect(mayRequest({ ...ours, permission: 'clipboard-sanitized-write' }, origin)).toBe(true);
  });
  it('lets the app page ask for a call’s sound (getDisplayMedia names no device), which system-audio.ts then answers', () => {
    expect(mayRequest({ ...ours, permission: 'media', mediaTypes: [] }, origin)).toBe(true);
    expect(
      mayRequest({ ...ours, from: 'https://evil.example/', permission: 'media', mediaTypes: [] }, origin),
    ).toBe(false);
    expect(mayRequest({ ...ours, isMainFrame: false, permission: 'media', mediaTypes: [] }, origin)).toBe(
      false,
    );
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
  ])('refuses %s', (_name, ask) => {
    expect(mayRequest(ask, origin)).toBe(false);
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
