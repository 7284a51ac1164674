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
