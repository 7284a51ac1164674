import type { StateCreator } from 'zustand/vanilla';
import { ContractError, type ScribeApi } from '../../shared/contract';
import {
  SETTING_LABELS,
  serviceSetupProblems,
  settingsPatchSchema,
  type Settings,
  type SettingsPatch,
} from '../../shared/settings';
import { serviceOf } from '../../shared/delivery-target';
import { describeProblems } from '../../shared/validation';
import type { AppState } from './app-store';

export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

export interface SettingsSlice {
  settings: Settings | null;
  saveState: SaveState;
  /** Sentences keyed by field path ("service.baseUrl"), shown next to the field. */
  fieldProblems: Record<string, string>;
  /** A sentence for a failure that is not about one field. */
  saveError: string | null;
  loadSettings(): Promise<void>;
  /**
   * Checks a change against main's rules without sending it; names each problem on its field, all
   * at once. `partnerTokenTyped`: the service page has a new partner token to store with it.
   */
  checkSettings(patch: SettingsPatch, options?: { partnerTokenTyped?: boolean }): boolean;
  saveSettings(patch: SettingsPatch): Promise<boolean>;
}

export const createSettingsSlice =
  (api: ScribeApi): StateCreator<AppState, [], [], SettingsSlice> =>
  (set, get) => ({
    settings: null,
    saveState: 'idle',
    fieldProblems: {},
    saveError: null,
    async loadSettings() {
      try {
        set({ settings: await api.call('settings.get') });
      } catch (error) {
        set({ saveError: (error as Error).message });
      }
    },
    checkSettings(patch, options = {}) {
      // The same rules main applies, checked here first so a mistake is named before sending.
      const checked = settingsPatchSchema.safeParse(patch);
      const problems = checked.success ? {} : byField(describeProblems(checked.error, SETTING_LABELS));
      const current = get().settings;
      // What a real service needs, judged on the values as typed even when one of them breaks its
      // own rule: a wrong address and an empty partner ID are named together.
      if (current && SERVICE_KEYS.some((key) => key in patch)) {
        // A stored token belongs to the address it was entered for (issue 28): main never sends it
        // to another, so a new address needs the token typed again.
        const saving = serviceOf(patch.service ?? current.service);
        const secrets = get().secrets;
        const storedFor = secrets?.partnerTokenStored ? secrets.forService : undefined;
        const given = options.partnerTokenTyped === true || storedFor === saving;
        const setupProblems = serviceSetupProblems({ ...current, ...patch }, { given });
        if (setupProblems.partnerToken && storedFor !== undefined)
          setupProblems.partnerToken = TOKEN_FOR_NEW_ADDRESS;
        for (const [field, message] of Object.entries(setupProblems)) {
          problems[field] ??= message;
        }
      }
      if (Object.keys(problems).length === 0) return true;
      set({ saveState: 'failed', fieldProblems: problems });
      return false;
    },
    async saveSettings(patch) {
      if (!get().checkSettings(patch)) return false;
      const checked = settingsPatchSchema.parse(patch);
      set({ saveState: 'saving', fieldProblems: {}, saveError: null });
      try {
        set({ settings: await api.call('settings.set', checked), saveState: 'saved' });
        // The service or the identity may have changed: main has a new sign-in for it.
        void get().loadAuth();
        return true;
      } catch (error) {
        if (error instanceof ContractError && error.fields.length > 0) {
          set({ saveState: 'failed', fieldProblems: byField(error.fields) });
        } else {
          set({ saveState: 'failed', saveError: (error as Error).message });
        }
        return false;
      }
    },
  });

export const TOKEN_FOR_NEW_ADDRESS =
  'Partner token is needed again for this address: the stored one was entered for another service, and the app never sends it anywhere else.';

/** The settings that say which service and who the app is there: changing one re-checks them all. */
const SERVICE_KEYS = [
  'service',
  'authModel',
  'partnerId',
  'providerId',
  'oidcIssuer',
  'oidcClientId',
] as const;

function byField(problems: { field: string; message: string }[]): Record<string, string> {
  return Object.fromEntries(problems.map((p) => [p.field, p.message]));
}
