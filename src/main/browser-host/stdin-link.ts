import { MAX_VISIT_LINK_LENGTH } from '../../shared/visit-link';

/**
 * `--open-url -`: the visit link from standard input, one line (issue 28). A link in a command line
 * can be read by every user of the computer (the process list) and lands in Windows'
 * process-creation audit log; a link piped in is seen by this process alone.
 */
export function readLinkLine(
  input: NodeJS.ReadableStream & { destroy?(): void },
  maxLength = MAX_VISIT_LINK_LENGTH,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const settle = (outcome: () => void) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      // Nothing more is read: the process may exit, and a terminal is let go.
      input.pause();
      input.destroy?.();
      outcome();
    };
    const finish = (line: string) => {
      const link = line.replace(/\r$/, '').trim();
      if (link === '') settle(() => reject(new Error('--open-url - found no visit link on standard input.')));
      else settle(() => resolve(link));
    };
    const onData = (chunk: string | Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) finish(text.slice(0, end));
      else if (text.length > maxLength + 1)
        settle(() =>
          reject(
            new Error(
              `--open-url - read more than ${maxLength} characters without a line end; not a visit link.`,
            ),
          ),
        );
    };
    const onEnd = () => finish(text);
    const onError = (error: Error) =>
      settle(() => reject(new Error(`--open-url - could not read standard input (${error.message}).`)));
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onError);
  });
}
