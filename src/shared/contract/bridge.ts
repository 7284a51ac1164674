import type { ContractResult } from './envelope';
import type { EventName, VerbName } from './names';

/**
 * What the preload puts on `window.scribe` in the Electron app: one function per contract verb
 * and a subscription to contract events. Nothing else (no ipcRenderer, no raw channels).
 */
export interface PreloadBridge {
  readonly verbs: Readonly<Record<VerbName, (payload?: unknown) => Promise<ContractResult<unknown>>>>;
  on(event: EventName, listener: (payload: unknown) => void): () => void;
  /** One captured chunk message, fire-and-forget (Electron's IPC copies it). */
  sendChunk(message: ArrayBuffer): void;
}
