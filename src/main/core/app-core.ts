import type { AppInfo } from '../../shared/contract';
import { SETTING_LABELS } from '../../shared/settings';
import { createContractRouter, type ContractRouter } from './contract-router';
import { createEventHub, type EventHub } from './event-hub';
import type { Clock, JsonStorage, Logger } from './ports';
import { createSettingsService, type SettingsService } from './settings-service';

export interface AppCoreDeps {
  settingsStorage: JsonStorage;
  /** Facts about the running app that only the shell knows (mode, versions, data directory). */
  appInfo: AppInfo;
  log: Logger;
  clock: Clock;
  /** How often the core tells the renderer it is alive. */
  heartbeatIntervalMs?: number;
}

export interface AppCore {
  router: ContractRouter;
  events: EventHub;
  settings: SettingsService;
  stop(): void;
}

export const DEFAULT_HEARTBEAT_MS = 2_000;

/** Everything main does, wired from its ports; both shells (Electron and browser mode) call this. */
export async function createAppCore(deps: AppCoreDeps): Promise<AppCore> {
  const settings = await createSettingsService(deps.settingsStorage, deps.log);
  const events = createEventHub();

  const router = createContractRouter(
    {
      'app.info': () => deps.appInfo,
      'settings.get': () => settings.get(),
      'settings.set': (patch) => settings.update(patch),
    },
    deps.log,
    SETTING_LABELS,
  );

  let seq = 0;
  const stopHeartbeat = deps.clock.every(deps.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_MS, () => {
    events.emit('heartbeat', { seq: seq++, at: deps.clock.now() });
  });

  return { router, events, settings, stop: stopHeartbeat };
}
