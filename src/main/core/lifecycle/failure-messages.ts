/**
 * What the desktop app says in a dialog when it cannot go on: what happened in a sentence, what to
 * do, and where the log file is (for the IT admin). Nothing else: no error text, which may carry
 * a path with a patient's name in it or a service answer, and never a token.
 */

export interface FailureMessage {
  title: string;
  content: string;
}

export function startupFailureMessage(logPath: string): FailureMessage {
  return {
    title: 'Ambient Scribe could not start',
    content:
      'Ambient Scribe ran into a problem while starting and has to close. ' +
      'Audio of earlier visits stays on this computer. ' +
      'Start the app again; if this keeps happening, tell your IT admin and give them the log file:\n\n' +
      logPath,
  };
}

export function windowCrashLoopMessage(logPath: string, crashes: number, withinS: number): FailureMessage {
  return {
    title: 'Ambient Scribe keeps stopping',
    content:
      `The Ambient Scribe window stopped working ${crashes} times within ${withinS} seconds, so the app will close. ` +
      'A visit that was recording is kept on this computer: start the app again and finish it under Earlier visits. ' +
      'If this keeps happening, tell your IT admin and give them the log file:\n\n' +
      logPath,
  };
}
