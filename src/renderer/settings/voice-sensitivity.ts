import type { Sensitivity } from '../../shared/voice-sensitivity';

// The presets are shared: a policy file (main) sets them too.
export {
  SENSITIVITIES,
  SENSITIVITY_PRESETS,
  sensitivityOf,
  withSensitivity,
  type Sensitivity,
} from '../../shared/voice-sensitivity';

export const SENSITIVITY_WORDS: Record<Sensitivity, string> = {
  low: 'Low — a noisy room: only clear speech resumes the recording',
  medium: 'Medium — a quiet exam room (recommended)',
  high: 'High — a soft-spoken patient: quiet speech resumes it too',
};
