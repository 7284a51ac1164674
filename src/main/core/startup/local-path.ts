/**
 * A policy comes from a file on this computer (issue 28): the one rule, for the command line
 * (launch-args.ts) and the policy reader (startup-policy.ts).
 */
export const LOCAL_PATH_RULE = 'must be a file on this computer, not a network share or a URL';

/**
 * A UNC path (`\\host\share`, `//host/share`, and the `\\?\`, `\\.\` and `\??\` device forms that
 * can name one) or a URL (`file:`, `https:`, `smb:`, any `scheme:`): never opened, because on
 * Windows opening `\\host\share` sends the user's NTLM hash to that host. A drive letter is one
 * letter, so `C:\…` is a path and `ab:` a scheme.
 */
export function isNetworkOrUrl(path: string): boolean {
  const text = path.trimStart();
  return /^[\\/]{2}/.test(text) || text.startsWith('\\??\\') || /^[a-z][a-z0-9+.-]+:/i.test(text);
}
