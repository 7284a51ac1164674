/**
 * Where every caller of the service (REST client, stream client) gets its credentials. The auth
 * manager implements it: it logs in, registers when the service says provider_not_registered,
 * refreshes before the hour ends, and logs in again once after a 401 or a 4001 close.
 * Service tokens live in memory only and never cross the contract to the renderer.
 */
export interface ServiceCredentials {
  /** Sent as the header sdp_service_token. */
  serviceToken: string;
  /** Single Auth Token partners: sent as the header sdp_provider_id on every REST call and upgrade. */
  providerHeader?: string;
  /** Wall-clock ms when the token stops being valid. */
  expiresAt: number;
}

export interface TokenSource {
  /** Valid credentials, logging in (or refreshing) first when needed. Rejects with ServiceError. */
  current(): Promise<ServiceCredentials>;
  /** The service refused the token (401, or stream close 4001): drop it and log in again. */
  renew(): Promise<ServiceCredentials>;
}

/** Where the service is: REST base `${baseUrl}/api/v1`, stream `${ws(baseUrl)}/ws/stream`. */
export interface ServiceEndpoint {
  baseUrl: string;
}

// protocol: Hosts and paths (wss, ws only for loopback — the settings check enforces it)
export function streamUrl(endpoint: ServiceEndpoint): string {
  return `${endpoint.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/ws/stream`;
}

export function restUrl(endpoint: ServiceEndpoint, path: string): string {
  return `${endpoint.baseUrl.replace(/\/+$/, '')}/api/v1${path}`;
}
