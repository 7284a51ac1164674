import { useAppStore } from '../store/use-app-store';

/** Whether the organisation's policy locks this setting (issue 18): false when there is no policy. */
export function useLockedSetting(setting: string | undefined): boolean {
  return useAppStore((s) => setting !== undefined && (s.appInfo?.managed?.locked.includes(setting) ?? false));
}
