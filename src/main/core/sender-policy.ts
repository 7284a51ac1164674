/**
 * Electron security checklist, "Validate the sender of all IPC messages": only the app's own
 * page, in its main frame, may call the contract. An iframe or a navigated-away page may not.
 */
export interface IpcSender {
  /** URL of the frame that sent the message (undefined if the frame is gone). */
  frameUrl: string | undefined;
  isMainFrame: boolean;
}

export function isTrustedSender(sender: IpcSender, appOrigin: string): boolean {
  return sender.isMainFrame && originOf(sender.frameUrl) === appOrigin;
}

/**
 * scheme://host[:port] of a URL, or undefined. Written out because Node's URL reports the origin
 * of a custom scheme such as app://scribe as "null", which would make every check fail (or, worse,
 * make two custom-scheme pages look alike).
 */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : undefined;
  } catch {
    return undefined;
  }
}
