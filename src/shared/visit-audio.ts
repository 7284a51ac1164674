/**
 * Where a visit's audio comes from (issue 30). In the room (the default) the microphone hears
 * both sides. In a telehealth visit the patient's side arrives as this computer's sound (the
 * video call), and a headset's microphone never hears it: the capture records the computer's
 * sound too, mixed with the microphone into the one stream the service takes. The clinician
 * chooses per visit and the choice is remembered; the organisation's policy may set it (and
 * lock it); a visit link never changes it (visit-link.ts has no such field).
 */
export const VISIT_AUDIO_MODES = ['room', 'telehealth'] as const;
export type VisitAudio = (typeof VISIT_AUDIO_MODES)[number];

/** The choice as the clinician reads it on the visit screen. */
export const VISIT_AUDIO_WORDS: Record<VisitAudio, string> = {
  room: 'In the room',
  telehealth: 'Telehealth: this computer’s sound too',
};
