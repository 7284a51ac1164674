import { useEffect, useRef } from 'react';

export interface Shortcut {
  key: string;
  /** For aria-keyshortcuts. */
  aria: string;
  /** As shown on the button. */
  label: string;
}

// Ctrl (⌘ on a Mac) + Shift: a plain key would fire while the clinician types in another field,
// and Alt+letter opens menus on Windows and Linux.
const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
const modifier = isMac ? '⌘⇧' : 'Ctrl+Shift+';

export const SHORTCUTS = {
  pauseResume: {
    key: ' ',
    aria: isMac ? 'Meta+Shift+Space' : 'Control+Shift+Space',
    label: `${modifier}Space`,
  },
  /** End visit while recording; Start recording on the ready visit (never on a note). */
  end: { key: 'Enter', aria: isMac ? 'Meta+Shift+Enter' : 'Control+Shift+Enter', label: `${modifier}Enter` },
  /**
   * New visit (issue 31), never while recording. O, not N: browsers keep Ctrl+Shift+N (⌘⇧N) for a
   * private window and never hand it to the page, so in browser mode it would open one instead.
   */
  newVisit: { key: 'O', aria: isMac ? 'Meta+Shift+O' : 'Control+Shift+O', label: `${modifier}O` },
} satisfies Record<string, Shortcut>;

/** Copy all of the note on screen (issue 31): C for copy, and no text field copies on Ctrl+Shift+C. */
export const COPY_ALL_SHORTCUT: Shortcut = {
  key: 'C',
  aria: isMac ? 'Meta+Shift+C' : 'Control+Shift+C',
  label: `${modifier}C`,
};

/** Runs `action` on the shortcut while `active`, anywhere in the window. */
export function useShortcut(shortcut: Shortcut, active: boolean, action: () => void): void {
  // The latest action, without re-adding the listener on every render.
  const latest = useRef(action);
  useEffect(() => {
    latest.current = action;
  });
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      const primary = isMac ? event.metaKey : event.ctrlKey;
      if (!primary || !event.shiftKey || event.altKey || event.repeat) return;
      // A letter's case: Shift gives "C", but "c" where Caps Lock is on too.
      if (event.key.toLowerCase() !== shortcut.key.toLowerCase()) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shortcut, active]);
}
