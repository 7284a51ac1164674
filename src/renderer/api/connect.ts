import type { PreloadBridge } from '../../shared/contract';
import { createPreloadApi } from './preload-api';
import type { LinkState } from './link-state';
import { takePageCredential } from './page-credential';
import { createSocketApi } from './socket-api';
import type { ScribeApi } from '../../shared/contract';

export interface ConnectedApi {
  api: ScribeApi;
  /** The IPC link of the desktop app is always up; browser mode's socket can drop. */
  onLinkState(listener: (state: LinkState) => void): () => void;
}

/** The same renderer runs in both modes: the preload's bridge if present, else the host's socket. */
export function connectScribeApi(): ConnectedApi {
  const bridge = (window as unknown as { scribe?: PreloadBridge }).scribe;
  if (bridge) {
    return {
      api: createPreloadApi(bridge),
      onLinkState: (listener) => {
        listener('connected');
        return () => undefined;
      },
    };
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const api = createSocketApi(`${scheme}//${location.host}/contract`, takePageCredential());
  return { api, onLinkState: api.onLinkState };
}
