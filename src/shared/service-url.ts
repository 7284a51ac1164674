/**
 * Which service addresses the app will talk to. The service interface requires HTTPS; plain
 * http is allowed only for loopback hosts (the built-in sandbox and local test servers), per
 * docs/protocol.md "Hosts and paths".
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const SERVICE_URL_RULE =
  'must be a full https:// address (http:// is allowed only for 127.0.0.1 or localhost)';

export function isAllowedServiceUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
