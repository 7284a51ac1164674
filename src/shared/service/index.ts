/** The documentation service's wire types (spec + docs/protocol.md), shared by the app and the sandbox. */
export * from './ids';
export * from './sections';
export * from './auth';
export * from './ambient';
export * from './forms';
export * from './notifications';
