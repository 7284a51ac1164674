import { describe, expect, it } from 'vitest';
import { chooseMicrophone, fallbackNotice, isStillConnected, realInputs } from './device-choice';

const laptop = { deviceId: 'a1', label: 'Built-in Microphone' };
const headset = { deviceId: 'h7', label: 'Jabra Evolve2 65' };
const chromeDefault = { deviceId: 'default', label: 'Default - Built-in Microphone' };

describe('chooseMicrophone', () => {
  it('uses the system default when nothing was chosen', () => {
    expect(chooseMicrophone({ deviceId: '', label: '' }, [chromeDefault, laptop])).toEqual({
      kind: 'default',
    });
    expect(chooseMicrophone({ deviceId: 'default', label: 'x' }, [laptop])).toEqual({ kind: 'default' });
  });

  it('finds the remembered microphone by id', () => {
    expect(chooseMicrophone(headset, [chromeDefault, laptop, headset])).toEqual({
      kind: 'chosen',
      device: headset,
      matchedBy: 'id',
    });
  });

  it('finds it by label when the browser gave it a new id', () => {
    const renamed = { deviceId: 'zz9', label: headset.label };
    expect(chooseMicrophone(headset, [laptop, renamed])).toEqual({
      kind: 'chosen',
      device: renamed,
      matchedBy: 'label',
    });
  });

  it('falls back to the default, flagged, when the microphone is unplugged', () => {
    const choice = chooseMicrophone(headset, [chromeDefault, laptop]);
    expect(choice).toEqual({ kind: 'fallback', missing: headset });
    expect(fallbackNotice(headset)).toMatch(/“Jabra Evolve2 65” is not connected.*default microphone/);
  });

  it('never matches on an empty label (labels are blank before permission is granted)', () => {
    const unnamed = { deviceId: 'q', label: '' };
    expect(chooseMicrophone({ deviceId: 'gone', label: '' }, [unnamed])).toMatchObject({ kind: 'fallback' });
    expect(fallbackNotice({ deviceId: 'gone', label: '' })).toMatch(
      /^The chosen microphone is not connected/,
    );
  });

  it('does not count the default alias as the remembered device', () => {
    expect(chooseMicrophone(laptop, [chromeDefault])).toMatchObject({ kind: 'fallback' });
    expect(realInputs([chromeDefault, laptop, { deviceId: 'communications', label: 'c' }])).toEqual([laptop]);
    // Before permission Chromium lists one input with neither id nor label.
    expect(realInputs([{ deviceId: '', label: '' }])).toEqual([]);
  });

  it('tells whether the device being recorded from is still connected', () => {
    expect(isStillConnected('h7', [laptop, headset])).toBe(true);
    expect(isStillConnected('h7', [laptop])).toBe(false);
  });
});
