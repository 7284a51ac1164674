import type { Settings } from '../../shared/settings';

/**
 * The theme on <html data-theme>: styles.css follows it, and follows the OS (prefers-color-scheme)
 * when it is absent, which is what 'system' means.
 */
export function applyTheme(root: HTMLElement, theme: Settings['theme']): void {
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}
