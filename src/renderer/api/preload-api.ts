import {
  ContractError,
  type ContractResult,
  type PreloadBridge,
  type ScribeApi,
} from '../../shared/contract';

/** The contract over Electron IPC, through the verbs the preload exposed on window.scribe. */
export function createPreloadApi(bridge: PreloadBridge): ScribeApi {
  return {
    async call(verb, ...[payload]) {
      const result = (await bridge.verbs[verb](payload)) as ContractResult<never>;
      if (!result.ok) throw new ContractError(result.error);
      return result.value;
    },
    on(event, listener) {
      return bridge.on(event, listener as (payload: unknown) => void);
    },
    sendChunk(message) {
      bridge.sendChunk(message);
    },
  };
}
