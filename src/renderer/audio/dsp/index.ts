export { FRAME_BYTES, FRAME_SAMPLES, SERVICE_SAMPLE_RATE } from '../../../shared/audio-format';
export { ChunkPool } from './chunk-pool';
export { Framer, type FrameHandler } from './framer';
export { toInt16LE } from './int16';
export { Resampler, type ResamplerOptions } from './resampler';
