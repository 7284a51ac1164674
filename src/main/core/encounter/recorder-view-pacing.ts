import type { RecorderView } from '../../../shared/contract';

/**
 * The recorder changes with every 100 ms chunk (its elapsed time, backlog and speech flag), but the
 * window shows whole seconds and the state: a view goes out when anything but those three changed,
 * when the elapsed time reaches a new second, when the backlog's whole seconds change or it empties,
 * and never more often otherwise. Ten contract messages a second became about one, and with them the
 * window's parse, store update and redraw (issue 19). `recorder.state` still answers the exact view.
 */
export function paceRecorderViews(send: (view: RecorderView) => void): (view: RecorderView) => void {
  let last: RecorderView | undefined;
  return (view) => {
    if (last === undefined || differs(last, view)) {
      last = view;
      send(view);
    }
  };
}

const wholeSeconds = (ms: number) => Math.floor(ms / 1_000);

function differs(before: RecorderView, now: RecorderView): boolean {
  const { elapsedMs: e1, backlogMs: b1, speech: _s1, ...rest1 } = before;
  const { elapsedMs: e2, backlogMs: b2, speech: _s2, ...rest2 } = now;
  return (
    wholeSeconds(e1) !== wholeSeconds(e2) ||
    wholeSeconds(b1) !== wholeSeconds(b2) ||
    (b1 === 0) !== (b2 === 0) ||
    !sameFields(rest1, rest2)
  );
}

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
