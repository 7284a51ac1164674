import { describe, expect, it } from 'vitest';
import { visitLinkInArgs } from './visit-link-args';

describe('the visit link in a launch command line', () => {
  it('is found wherever Chromium put it, the scheme in any case', () => {
    const link = 'ambient-scribe://visit?encounter_id=A1';
    expect(visitLinkInArgs(['/opt/Ambient Scribe/ambient-scribe', link])).toBe(link);
    expect(visitLinkInArgs(['C:\\Ambient Scribe.exe', '--allow-file-access-from-files', '--', link])).toBe(
      link,
    );
    expect(visitLinkInArgs(['app', 'AMBIENT-SCRIBE://visit?encounter_id=A1'])).toBe(
      'AMBIENT-SCRIBE://visit?encounter_id=A1',
    );
  });

  it('is absent from an ordinary launch, and another scheme is not one', () => {
    expect(visitLinkInArgs(['/opt/Ambient Scribe/ambient-scribe'])).toBeUndefined();
    expect(visitLinkInArgs(['app', 'https://example.org/?ambient-scribe://visit'])).toBeUndefined();
    expect(visitLinkInArgs(['app', '--policy', '/etc/ambient-scribe/policy.json'])).toBeUndefined();
  });
});
