// protocol: Audio stream (LINEAR16 little-endian, 16 kHz, mono; 100 ms chunks recommended)
/** What the documentation service takes, shared by the capture pipeline, the contract and the core. */
export const SERVICE_SAMPLE_RATE = 16_000;
/** The length of one chunk of audio, in ms. */
export const CHUNK_MS = 100;
/** Samples in one 100 ms chunk at 16 kHz. */
export const FRAME_SAMPLES = 1_600;
/** Bytes in one chunk of Int16 little-endian samples (3,200). */
export const FRAME_BYTES = FRAME_SAMPLES * 2;
/** Bytes of audio per second (32,000). */
export const BYTES_PER_SECOND = SERVICE_SAMPLE_RATE * 2;
/** The service's smallest accepted chunk, 20 ms (640 bytes). */
export const MIN_CHUNK_BYTES = (BYTES_PER_SECOND * 20) / 1000;

/**
 * No chunk for this long while recording: the capture has stalled (a microphone unplugged, the
 * computer asleep). Main then PAUSEs the service so it keeps the session (its 25 s rule for a
 * stream without audio) and the window says it waits for the microphone. It was 1 s: on a machine
 * half as fast, or one busy with the EHR, chunks arrive a second late now and then without anything
 * being wrong, and a reload takes longer than that to rejoin (issue 36). The app cannot tell a
 * starved capture from a stopped one, so it waits long enough that only a stopped one gets here,
 * and the pause it then makes loses nothing: the next chunk, speech or not, resumes it.
 */
export const CAPTURE_STALL_MS = 5_000;
