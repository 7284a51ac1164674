import { basename } from 'node:path';
import type { Logger } from '../ports';
import { setAsideIfDamaged } from './damaged-json-file';

/**
 * The settings file's check at start, the same in both shells: a damaged file is set aside
 * (damaged-json-file.ts) and the app starts from default settings. The clinician is told, in the
 * window, what happened and what to do: these sentences go to the renderer as app.info's notices.
 */
export async function checkSettingsFile(filePath: string, log: Logger): Promise<string[]> {
  const setAside = await setAsideIfDamaged(filePath, log);
  return setAside ? [damagedSettingsNotice(basename(setAside.keptAs))] : [];
}

export function damagedSettingsNotice(keptAsName: string): string {
  return (
    'Your settings file was damaged and was set aside; the app started with default settings. ' +
    'Choose your documentation service and enter its settings again (ask your IT admin if you do not have them). ' +
    `The damaged file is kept as ${keptAsName} in the app data directory shown at the bottom of the window.`
  );
}
