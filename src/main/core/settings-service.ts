import {
  DEFAULT_SETTINGS,
  SETTING_LABELS,
  settingsSchema,
  type Settings,
  type SettingsPatch,
} from '../../shared/settings';
import { lockedSettings, settingsFromPolicy, type Policy } from '../../shared/policy';
import { describeProblems } from '../../shared/validation';
import type { JsonStorage, Logger } from './ports';
import { UserFacingError } from './user-facing-error';

export interface SettingsService {
  get(): Settings;
  update(patch: SettingsPatch): Promise<Settings>;
  readonly location: string;
  /** The settings the organisation's policy sets for good: shown read-only, refused in update. */
  readonly locked: readonly (keyof Settings)[];
}

/** The organisation's policy (issue 18), already read and checked (startup/policy-file.ts). */
export interface ManagedSettings {
  policy: Policy;
  /** The operating system's user name, for a provider ID written `{username}`. */
  username: string;
}

/**
 * Loads settings over the defaults, keeping every stored value that is still valid (an upgrade
 * that adds or tightens a setting must not wipe the rest), and saves each change at once. Under
 * a policy, its values are the defaults and its locked ones always win and cannot be changed.
 */
export async function createSettingsService(
  storage: JsonStorage,
  log: Logger,
  managed?: ManagedSettings,
): Promise<SettingsService> {
  const defaults = managed
    ? settingsFromPolicy(managed.policy, DEFAULT_SETTINGS, { username: managed.username })
    : DEFAULT_SETTINGS;
  const locked = managed ? lockedSettings(managed.policy) : [];
  const enforced = Object.fromEntries(locked.map((key) => [key, defaults[key]])) as Partial<Settings>;
  let current: Settings = { ...mergeValidKeys(await storage.read(), log, defaults), ...enforced };
  // Writes are queued so two quick changes land in order.
  let lastWrite: Promise<void> = Promise.resolve();

  return {
    location: storage.location,
    get: () => current,
    locked,
    async update(patch) {
      const refused = locked.filter(
        (key) => key in patch && JSON.stringify(patch[key]) !== JSON.stringify(current[key]),
      );
      if (refused.length > 0) {
        const fields = refused.map((field) => ({
          field,
          message: `${SETTING_LABELS[field] ?? field} is set by your organisation and cannot be changed here.`,
        }));
        throw new UserFacingError('invalid_request', fields.map((f) => f.message).join(' '), fields);
      }
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

function mergeValidKeys(stored: unknown, log: Logger, defaults: Settings): Settings {
  if (stored === undefined) return defaults;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    log.warn('stored settings were not an object; using defaults');
    return defaults;
  }
  const merged: Record<string, unknown> = { ...defaults };
  const shape = settingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof Settings)[]) {
    if (!(key in stored)) continue;
    const parsed = shape[key].safeParse((stored as Record<string, unknown>)[key]);
    if (parsed.success) merged[key] = parsed.data;
    else log.warn('a stored setting was invalid; using its default', { setting: key });
  }
  return settingsSchema.parse(merged);
}
