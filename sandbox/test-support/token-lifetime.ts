/**
 * A service token that outlives a test file at any time scale (issue 36). A sandbox at 0.01 turns
 * the token's hour into 36 s, and a file of contract tests takes longer than that on a machine half
 * as fast: its last calls were refused for an expired token (401) instead of answering what the test
 * asked. A day scales to 14.4 min at 0.01. Only files that do not test expiry use it; expiry has its
 * own tests with their own short lifetime (stream.test.ts, auth.test.ts, control-and-webhook's
 * expire_tokens fault).
 */
export const TOKEN_OUTLIVES_THE_FILE = { tokenLifetimeMs: 24 * 60 * 60 * 1000 } as const;
