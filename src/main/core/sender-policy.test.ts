import { describe, expect, it } from 'vitest';
import { isTrustedSender, originOf } from './sender-policy';

describe('which IPC senders may call the contract', () => {
  const origin = 'app://scribe';
  it('accepts the app page in its main frame', () => {
    expect(isTrustedSender({ frameUrl: 'app://scribe/index.html', isMainFrame: true }, origin)).toBe(true);
  });
  it.each([
    ['an iframe of the app', { frameUrl: 'app://scribe/index.html', isMainFrame: false }],
    ['a page from elsewhere', { frameUrl: 'https://evil.example/', isMainFrame: true }],
    ['a look-alike host', { frameUrl: 'app://scribe.evil/index.html', isMainFrame: true }],
    ['a file page', { frameUrl: 'file:///home/user/index.html', isMainFrame: true }],
    ['a frame that is gone', { frameUrl: undefined, isMainFrame: true }],
    ['garbage', { frameUrl: 'not a url', isMainFrame: true }],
  ])('refuses %s', (_name, sender) => {
    expect(isTrustedSender(sender, origin)).toBe(false);
  });
});

describe('originOf', () => {
  it('gives scheme and host for custom schemes, where Node’s URL says "null"', () => {
    expect(new URL('app://scribe/x').origin).toBe('null');
    expect(originOf('app://scribe/index.html')).toBe('app://scribe');
    expect(originOf('http://127.0.0.1:5173/')).toBe('http://127.0.0.1:5173');
    expect(originOf('file:///etc/passwd')).toBeUndefined();
  });
});
