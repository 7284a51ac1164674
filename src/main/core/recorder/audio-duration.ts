// protocol: Audio stream (LINEAR16, 16 kHz, mono: 16,000 samples × 2 bytes per second)
export const PCM_BYTES_PER_MS = 32;

/** How much audio a LINEAR16 16 kHz mono buffer holds, in ms (3,200 bytes → 100 ms). */
export function pcmDurationMs(pcm: Uint8Array): number {
  return pcm.byteLength / PCM_BYTES_PER_MS;
}
