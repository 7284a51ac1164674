/** The fixed numbers of the visit, shared by the core-driving client and the bare reference. */

export const PARTNER = { partnerId: 'demo-bearer', token: 'sandbox-bearer-partner-token' };
export const CONTEXT = { sections: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PLAN'] };
export const CHUNK_MS = 100;
export const CHUNK_BYTES = 3_200;
export const CHUNKS_PER_MINUTE = 60_000 / CHUNK_MS;
/** The recorder's defaults (DEFAULT_RECORDER_TIMING), which the reference client copies. */
export const AUTO_PAUSE_AFTER_MS = 4_000;
export const PRE_ROLL_CHUNKS = 6;
export const KEEP_ALIVE_EVERY_MS = 2_000;
export const MB = 1024 * 1024;
