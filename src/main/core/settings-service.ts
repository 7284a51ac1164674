import {
  DEFAULT_SETTINGS,
  SETTING_LABELS,
  settingsSchema,
  type Settings,
  type SettingsPatch,
} from '../../shared/settings';
import { describeProblems } from '../../shared/validation';
import type { JsonStorage, Logger } from './ports';
import { UserFacingError } from './user-facing-error';

export interface SettingsService {
  get(): Settings;
  update(patch: SettingsPatch): Promise<Settings>;
  readonly location: string;
}

/**
 * Loads settings over the defaults, keeping every stored value that is still valid (an upgrade
 * that adds or tightens a setting must not wipe the rest), and saves each change at once.
 */
export async function createSettingsService(storage: JsonStorage, log: Logger): Promise<SettingsService> {
  let current = mergeValidKeys(await storage.read(), log);
  // Writes are queued so two quick changes land in order.
  let lastWrite: Promise<void> = Promise.resolve();

  return {
    location: storage.location,
    get: () => current,
    async update(patch) {
      const next = settingsSchema.safeParse({ ...current, ...patch });
      if (!next.success) {
        const fields = describeProblems(next.error, SETTING_LABELS);
        throw new UserFacingError('invalid_request', fields.map((f) => f.message).join(' '), fields);
      }
      const write = lastWrite.then(() => storage.write(next.data));
      lastWrite = write.catch(() => undefined);
      await write;
      current = next.data;
      // Which settings, never their values (a provider's name, a service address).
      log.info('settings: saved', { setting: Object.keys(patch) });
      return current;
    },
  };
}

function mergeValidKeys(stored: unknown, log: Logger): Settings {
  if (stored === undefined) return DEFAULT_SETTINGS;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    log.warn('stored settings were not an object; using defaults');
    return DEFAULT_SETTINGS;
  }
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  const shape = settingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof Settings)[]) {
    if (!(key in stored)) continue;
    const parsed = shape[key].safeParse((stored as Record<string, unknown>)[key]);
    if (parsed.success) merged[key] = parsed.data;
    else log.warn('a stored setting was invalid; using its default', { setting: key });
  }
  return settingsSchema.parse(merged);
}
