import log from 'electron-log/node';
import { join } from 'node:path';
import { PRODUCT_NAME } from '../core/data-directory';
import { electronLogFileLogger, LOG_FILE_NAME } from '../core/logging/electron-log-file';
import type { Logger } from '../core/ports';

/** Browser mode's log file: `<data directory>/logs/main.log` (the Electron shell uses the OS's log directory). */
export function browserModeLogPath(dataDirectory: string): string {
  return join(dataDirectory, 'logs', LOG_FILE_NAME);
}

/**
 * The log file in plain Node, through electron-log/node. One electron-log instance per file, so
 * two cores in one process (tests) never write into each other's log. Pass it to scrubbedLogger
 * before anything logs through it.
 */
export function createNodeFileLogger(options: {
  filePath: string;
  console: boolean;
  maxBytes?: number;
}): Logger {
  // electron-log resolves its default paths from the app's name; outside Electron it would look
  // for a package.json, which a bundled build may not have next to it.
  log.transports.file.setAppName(PRODUCT_NAME);
  const instance = log.create({ logId: `scribe:${options.filePath}` });
  return electronLogFileLogger(instance, { ...options, filePath: () => options.filePath });
}
