import type { NodeLogger } from 'electron-log';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import type { Logger } from '../ports';

/**
 * The app's log file, written by electron-log: electron-log/main in the Electron shell,
 * electron-log/node in browser mode (each shell passes its instance; only the type is imported
 * here, so the core stays free of Electron). Lines reach this logger already scrubbed
 * (scrubbed-logger.ts); it only formats and writes them.
 */

/** At this size main.log becomes main.old.log (replacing the previous one) and a new file starts. */
export const LOG_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const LOG_FILE_NAME = 'main.log';
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;

export interface LogFileOptions {
  /**
   * Where main.log goes; asked at the first line written (the Electron shell's log directory is
   * known for sure only once the app is ready).
   */
  filePath: () => string;
  /** Also print each line (development, browser mode). */
  console: boolean;
  /** Rotation size; LOG_FILE_MAX_BYTES unless a test wants to see a rotation quickly. */
  maxBytes?: number;
}

export function electronLogFileLogger(instance: NodeLogger, options: LogFileOptions): Logger {
  let filePath: string | undefined;
  const { file, console, ipc, remote } = instance.transports;
  file.resolvePathFn = () => (filePath ??= ownerOnly(options.filePath()));
  file.maxSize = options.maxBytes ?? LOG_FILE_MAX_BYTES;
  // Applies when a file is created, including the new main.log after a rotation.
  file.writeOptions = { flag: 'a', mode: FILE_MODE, encoding: 'utf8' };
  file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}{z}] [{level}] {text}';
  file.level = 'info';
  console.level = options.console ? 'info' : false;
  // Main-process lines go nowhere else: not to a window's devtools (electron-log's ipc transport,
  // on by default in development), not to a server.
  if (ipc) ipc.level = false;
  if (remote) remote.level = false;
  return {
    info: (message, fields) => instance.info(logLine(message, fields)),
    warn: (message, fields) => instance.warn(logLine(message, fields)),
    error: (message, fields) => instance.error(logLine(message, fields)),
  };
}

/** One line per call: the message, then the fields as JSON (newlines inside are escaped). */
export function logLine(message: string, fields?: Record<string, unknown>): string {
  return fields && Object.keys(fields).length > 0 ? `${message} ${JSON.stringify(fields)}` : message;
}

/**
 * The log directory and files readable by this user only, where the platform has such modes
 * (Windows ignores them; the directory is in the user's own profile there). A file left by an
 * earlier run with wider permissions is narrowed.
 */
function ownerOnly(filePath: string): string {
  try {
    mkdirSync(dirname(filePath), { recursive: true, mode: DIRECTORY_MODE });
    const { dir, name, ext } = parse(filePath);
    for (const path of [filePath, join(dir, `${name}.old${ext}`)]) {
      if (existsSync(path)) chmodSync(path, FILE_MODE);
    }
  } catch {
    // electron-log reports a directory it cannot write to on the console; nothing more to do here.
  }
  return filePath;
}
