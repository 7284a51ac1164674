import { useEffect, useId } from 'react';
import { chooseMicrophone } from '../audio/device-choice';
import { useAppStore } from '../store/use-app-store';

/**
 * Which microphone to record from, remembered in settings by id and name. Follows hot-plugs; a
 * remembered microphone that is unplugged stays listed (marked) so the choice is not lost.
 */
export function MicrophonePicker() {
  const id = useId();
  const inputs = useAppStore((s) => s.inputs);
  const remembered = useAppStore((s) => s.settings?.microphone);
  const choose = useAppStore((s) => s.chooseMicrophone);
  const watchInputs = useAppStore((s) => s.watchInputs);
  useEffect(() => watchInputs(), [watchInputs]);

  if (!remembered) return null;
  // The same choice recording makes: by id, else by name (ids differ per origin and install).
  const choice = chooseMicrophone(remembered, inputs);
  const value = choice.kind === 'chosen' ? choice.device.deviceId : remembered.deviceId;
  // Nothing listed = no permission yet, so the remembered microphone may well be there.
  const unlisted = choice.kind === 'fallback';
  const missing = unlisted && inputs.length > 0;
  return (
    <div className="field">
      <label htmlFor={id}>Microphone</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const device = inputs.find((d) => d.deviceId === event.target.value);
          void choose(device ?? { deviceId: '', label: '' });
        }}
      >
        <option value="">System default</option>
        {inputs.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `Microphone ${index + 1}`}
          </option>
        ))}
        {missing && (
          <option value={value}>{`${remembered.label || 'Chosen microphone'} (not connected)`}</option>
        )}
      </select>
    </div>
  );
}
