/**
 * When a visit link brings the window forward (issue 28). The first link of a burst does; links that
 * follow it within a few seconds open their visit without taking the focus again, so a program
 * that fires links (a web page, a script) cannot keep pulling the window in front of whatever the
 * clinician types elsewhere. Each link extends the burst: the focus comes back only after a quiet
 * spell.
 */
export const LINK_FOCUS_QUIET_MS = 5_000;

export interface LinkFocus {
  /** A link arrived now: true when the window should come forward for it. */
  linkArrived(): boolean;
}

export function createLinkFocus(clock: { now(): number }, quietMs = LINK_FOCUS_QUIET_MS): LinkFocus {
  let lastLinkAt: number | undefined;
  return {
    linkArrived() {
      const now = clock.now();
      const focus = lastLinkAt === undefined || now - lastLinkAt >= quietMs || now < lastLinkAt;
      lastLinkAt = now;
      return focus;
    },
  };
}
