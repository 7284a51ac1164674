import { app, ipcMain } from 'electron';
import log from 'electron-log/main';
import { join } from 'node:path';
import { desktopDataDirectoryOverride } from './core/data-directory';
import { electronLogFileLogger, LOG_FILE_NAME } from './core/logging/electron-log-file';
import type { Logger } from './core/ports';

/** The channel electron-log/main listens on for renderer processes' log lines. */
const ELECTRON_LOG_CHANNEL = '__ELECTRON_LOG__';

/**
 * The desktop app's log file, `main.log` in the OS's log directory for the app (app.getPath('logs'):
 * ~/Library/Logs/Ambient Scribe on macOS, `logs` in the app data directory on Linux and Windows),
 * or `logs` in SCRIBE_DATA_DIR when an unpackaged build has it (development and tests keep everything together).
 * Console output in development only. Wrap it in scrubbedLogger before use.
 */
export function createElectronFileLogger(): Logger {
  // Electron security checklist, "validate the sender of all IPC messages": electron-log/main
  // starts listening for renderer log lines when it is imported, from any sender. This app's
  // renderer does not log through it, and such lines would reach the file without the scrubber.
  ipcMain.removeAllListeners(ELECTRON_LOG_CHANNEL);
  ipcMain.removeHandler(ELECTRON_LOG_CHANNEL);
  return electronLogFileLogger(log, { filePath: electronLogPath, console: !app.isPackaged });
}

/** Where main.log is (the dialogs that close the app name it for the IT admin). */
export function electronLogPath(): string {
  // As the data directory (index.ts): SCRIBE_DATA_DIR counts in an unpackaged build only.
  const dataDirectory = desktopDataDirectoryOverride(process.env, app.isPackaged);
  return join(dataDirectory ? join(dataDirectory, 'logs') : app.getPath('logs'), LOG_FILE_NAME);
}
