import { useRef, useSyncExternalStore } from 'react';
import { onWindowShownChange, windowShown } from '../../screen/window-shown';
import type { AppState } from '../../store/app-store';
import { useAppStore } from '../../store/use-app-store';

/** Whether the clinician can see the window (screen/window-shown.ts), as React state. */
export function useWindowShown(): boolean {
  return useSyncExternalStore(onWindowShownChange, windowShown);
}

/**
 * A value of the store for the screen alone: while the window is not seen it stays as it was last
 * shown, so the store's changes re-render nothing; the moment the window shows, the value is the
 * store's again.
 */
export function useWhileShown<T>(selector: (state: AppState) => T): T {
  const shown = useWindowShown();
  const held = useRef<{ value: T } | null>(null);
  return useAppStore((state) => {
    if (shown || held.current === null) held.current = { value: selector(state) };
    return held.current.value;
  });
}
