import { isAllowedServiceUrl } from './service-url';

/**
 * Which addresses the app opens as a sign-in page: in the system browser (Electron,
 * shell.openExternal) or a new tab (browser mode, the auth.openUrl event). The rule of the service's
 * own addresses: https, or http on this machine's loopback (the built-in sandbox's identity
 * provider), no credentials in the address. Never file:, javascript:, data: or the app's own
 * scheme (Electron security checklist, "Do not use shell.openExternal with untrusted content").
 */
export function isSignInPageUrl(url: string): boolean {
  return isAllowedServiceUrl(url);
}
