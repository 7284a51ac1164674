import type { EventName, VerbName } from './names';
import type { EventPayload, VerbRequest, VerbResponse } from './schemas';

/**
 * What the renderer sees of main, whichever transport carries it: call a verb, or listen to an
 * event. Verbs reject with ContractError when main answers with an error envelope.
 */
export interface ScribeApi {
  call<V extends VerbName>(verb: V, ...payload: PayloadArgs<V>): Promise<VerbResponse<V>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /**
   * Sends one captured chunk message (audio-chunk.ts) on the one-way chunk channel. The caller may
   * reuse `message` as soon as this returns: transports copy or queue it first.
   */
  sendChunk(message: ArrayBuffer): void;
}

/** Verbs without a payload are called with none: `call('app.info')`. */
export type PayloadArgs<V extends VerbName> =
  undefined extends VerbRequest<V> ? [payload?: VerbRequest<V>] : [payload: VerbRequest<V>];
