import type { Logger } from '../ports';

/**
 * Warnings a caller can provoke at will (a refused contract call, a refused audio chunk): the
 * first in a window is written as it comes, the rest of that window are counted and written as
 * one line when it closes. Whoever is on the contract socket can then add at most two lines a
 * second to the log, so nobody can rotate the visit's history out of its 5 MB.
 */
export function throttledWarnings(log: Logger, windowMs = 1_000): Logger['warn'] {
  let suppressed = 0;
  let last = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (message, fields) => {
    if (timer !== undefined) {
      suppressed += 1;
      last = message;
      return;
    }
    log.warn(message, fields);
    timer = setTimeout(() => {
      timer = undefined;
      if (suppressed > 0) log.warn(`${suppressed} more like it in ${windowMs} ms, the last: ${last}`);
      suppressed = 0;
    }, windowMs);
    // A pending count never keeps the process alive.
    timer.unref?.();
  };
}
