/** Which transcript sentences are lit, and by which control (a note section or a form field). */
export interface Highlight {
  owner: string;
  /** What the lit sentences are the source of, for the announcement ("Chief complaint"). */
  name: string;
  ids: readonly string[];
}

/** Pressing the lit control again clears; pressing another moves the highlight to it. */
export function toggleHighlight(current: Highlight | null, next: Highlight): Highlight | null {
  return current?.owner === next.owner ? null : next;
}
