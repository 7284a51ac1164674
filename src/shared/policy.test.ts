import { describe, expect, it } from 'vitest';
import { expandProviderId, lockedSettings, policySchema, settingsFromPolicy } from './policy';
import { DEFAULT_SETTINGS } from './settings';

describe('the organisation’s policy', () => {
  it('sets the service and completes the first run; the rest of the defaults stay', () => {
    const policy = policySchema.parse({ serviceUrl: 'https://scribe.example.org', autoPauseSeconds: 6 });
    const settings = settingsFromPolicy(policy, DEFAULT_SETTINGS, { username: 'jdoe' });
    expect(settings).toEqual({
      ...DEFAULT_SETTINGS,
      service: { kind: 'url', baseUrl: 'https://scribe.example.org' },
      autoPauseAfterMs: 6_000,
      firstRunComplete: true,
    });
    // Without a service, the clinician still chooses at the first run.
    expect(
      settingsFromPolicy(policySchema.parse({ idleLockMinutes: 3 }), DEFAULT_SETTINGS, { username: 'x' }),
    ).toEqual({ ...DEFAULT_SETTINGS, idleLockMinutes: 3 });
  });

  it('locks the settings its keys set; the partner token is never one to lock', () => {
    expect(
      lockedSettings(policySchema.parse({ locked: ['serviceUrl', 'voiceSensitivity', 'autoPauseSeconds'] })),
    ).toEqual(['service', 'voiceDetection', 'autoPauseAfterMs']);
    expect(policySchema.safeParse({ locked: ['partnerToken'] }).success).toBe(false);
    expect(expandProviderId('{username}@clinic', 'jdoe')).toBe('jdoe@clinic');
  });

  it('is strict: an unknown key, an empty partner ID or a short partner token is refused', () => {
    expect(policySchema.safeParse({ serviceURL: 'https://x.example' }).success).toBe(false);
    expect(policySchema.safeParse({ partnerId: '' }).error?.issues[0]?.message).toBe('must not be empty');
    expect(policySchema.safeParse({ partnerToken: 'short' }).error?.issues[0]?.message).toMatch(
      /^must be the partner token from onboarding/,
    );
  });

  it('takes allowLocalPolicy as true or false; it is never locked and sets no setting', () => {
    expect(policySchema.parse({ allowLocalPolicy: true })).toEqual({ allowLocalPolicy: true });
    expect(policySchema.safeParse({ allowLocalPolicy: 'yes' }).error?.issues[0]?.message).toBe(
      'must be true or false',
    );
    expect(policySchema.safeParse({ locked: ['allowLocalPolicy'] }).success).toBe(false);
    expect(
      settingsFromPolicy(policySchema.parse({ allowLocalPolicy: true }), DEFAULT_SETTINGS, { username: 'x' }),
    ).toEqual(DEFAULT_SETTINGS);
  });

  it('sets what Finished does with values left to check (issue 38), and may lock it; a wrong value is named', () => {
    const policy = policySchema.parse({ checksBeforeFinish: 'required', locked: ['checksBeforeFinish'] });
    expect(settingsFromPolicy(policy, DEFAULT_SETTINGS, { username: 'x' })).toEqual({
      ...DEFAULT_SETTINGS,
      checksBeforeFinish: 'required',
    });
    expect(lockedSettings(policy)).toEqual(['checksBeforeFinish']);
    // Unset: Finished asks once.
    expect(DEFAULT_SETTINGS.checksBeforeFinish).toBe('ask');
    const wrong = policySchema.safeParse({ checksBeforeFinish: 'always' });
    expect(wrong.error?.issues[0]).toMatchObject({
      path: ['checksBeforeFinish'],
      message: 'must be one of off, ask, required',
    });
  });

  it('sets the visit audio the visit screen starts with, and may lock it; a wrong value is named', () => {
    const policy = policySchema.parse({ visitAudio: 'telehealth', locked: ['visitAudio'] });
    expect(settingsFromPolicy(policy, DEFAULT_SETTINGS, { username: 'x' })).toEqual({
      ...DEFAULT_SETTINGS,
      visitAudio: 'telehealth',
    });
    expect(lockedSettings(policy)).toEqual(['visitAudio']);
    // Unset, the clinician's own choice (or the default, in the room) stands.
    expect(DEFAULT_SETTINGS.visitAudio).toBe('room');
    const wrong = policySchema.safeParse({ visitAudio: 'video' });
    expect(wrong.error?.issues[0]).toMatchObject({
      path: ['visitAudio'],
      message: 'must be one of room, telehealth',
    });
  });
});
