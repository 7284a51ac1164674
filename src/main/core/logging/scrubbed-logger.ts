import type { Logger } from '../ports';
import { scrubFields } from './log-scrubber';
import { scrubText } from './log-text-rules';
import type { SecretValues } from './secret-values';

/**
 * The only way the app's log lines reach a transport (the log file, the console): the message
 * through the text rules, the fields through the field rules. Both shells wrap their
 * transport in it, so nothing written to a log skips the scrubber.
 */
export function scrubbedLogger(inner: Logger, secrets: SecretValues): Logger {
  const write = (level: keyof Logger) => (message: string, fields?: Record<string, unknown>) => {
    try {
      const text = scrubText(String(message), secrets);
      if (fields === undefined) inner[level](text);
      else inner[level](text, scrubFields(fields, secrets));
    } catch {
      // A full disk or a broken console must not break the visit that was being logged.
    }
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
