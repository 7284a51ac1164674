import { describe, expect, it } from 'vitest';
import { isSignInPageUrl } from './sign-in-page';

describe('which sign-in pages the app opens', () => {
  it.each([
    'https://login.example.org/authorize?client_id=x',
    'http://127.0.0.1:8700/idp/auth?client_id=x',
    'http://localhost:8700/idp/auth',
    'http://[::1]:8700/idp/auth',
  ])('opens %s', (url) => {
    expect(isSignInPageUrl(url)).toBe(true);
  });
  it.each([
    'http://login.example.org/authorize',
    'http://127.0.0.1.example.org/idp/auth',
    'https://user:secret@login.example.org/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'app://scribe/index.html',
    'smb://server/share',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isSignInPageUrl(url)).toBe(false);
  });
});
