import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, settingsPatchSchema } from '../../../shared/settings';
import { draftFrom, pagePatchFrom, patchFrom } from './setup-draft';

describe('the Setup draft', () => {
  it('gives back the settings it was made from (the microphone, note template and visit audio are chosen on the visit; Save ends the first run)', () => {
    const patch = patchFrom(draftFrom(DEFAULT_SETTINGS), DEFAULT_SETTINGS);
    const {
      microphone: _microphone,
      noteTemplate: _template,
      noteSections: _sections,
      visitAudio: _visitAudio,
      ...formSettings
    } = DEFAULT_SETTINGS;
    expect(patch).toEqual({ ...formSettings, firstRunComplete: true });
    expect(settingsPatchSchema.safeParse(patch).success).toBe(true);
  });

  it('turns a blank auto-pause or retention field into NaN, so main’s schema names the field', () => {
    const draft = { ...draftFrom(DEFAULT_SETTINGS), autoPauseSeconds: '', retentionDays: '  ' };
    const patch = patchFrom(draft, DEFAULT_SETTINGS);
    expect(patch.autoPauseAfterMs).toBeNaN();
    expect(patch.audioRetentionDays).toBeNaN();
    const checked = settingsPatchSchema.safeParse(patch);
    expect(checked.success).toBe(false);
    expect(checked.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'audioRetentionDays',
      'autoPauseAfterMs',
    ]);
  });
});

describe('the two settings pages', () => {
  it('each saves only its own settings, and together they are the whole form', () => {
    const draft = draftFrom(DEFAULT_SETTINGS);
    const clinician = pagePatchFrom('clinician', draft, DEFAULT_SETTINGS);
    const service = pagePatchFrom('service', draft, DEFAULT_SETTINGS);
    expect(Object.keys(clinician).sort()).toEqual([
      'audioProcessing',
      'autoPauseAfterMs',
      'checksBeforeFinish',
      'consent',
      'consentWording',
      'idleLockMinutes',
      'theme',
      'voiceDetection',
    ]);
    expect(Object.keys(service)).not.toContain('theme');
    expect(Object.keys(clinician).filter((key) => key in service)).toEqual([]);
    expect({ ...clinician, ...service }).toEqual(patchFrom(draft, DEFAULT_SETTINGS));
  });
});
