/**
 * The idle rule (4008 after 25 s without AUDIO) at 10 s instead of 250 ms, for contract tests at
 * time scale 0.01 that are not about it (issue 36). At 0.01 a test worker descheduled for a quarter
 * of a second between opening a stream and sending its audio (a fresh clone's CI run, with lint and
 * the type-check on the same two cores) saw its stream closed for idleness and its audio never
 * acknowledged: CI failed on "ACK stayed at 0". The rule itself has its own test, on a sandbox of
 * its own with the rule as the service has it (stream.test.ts).
 */
export const IDLE_OUTLIVES_THE_TEST = { idleAudioMs: 1_000_000 } as const;
