import { ContractError, type ScribeApi } from '../../src/shared/contract';
import type { AppCore } from '../../src/main/core/app-core';

/**
 * The renderer's store, without React, talking to the real main-process core through the same
 * router both transports use (this in-process hop stands in for IPC or the socket).
 */
export function inProcessApi(core: AppCore): ScribeApi & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async call(verb, ...[payload]) {
      calls.push(verb);
      const result = await core.router.dispatch(verb, payload);
      if (!result.ok) throw new ContractError(result.error);
      return result.value as never;
    },
    on(event, listener) {
      return core.events.subscribe((name, payload) => {
        if ((name as string) === event) listener(payload as never);
      });
    },
    sendChunk(message) {
      core.acceptChunk(message);
    },
  };
}
