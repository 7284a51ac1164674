/** The app's one contract between renderer and main: names, schemas and the result envelope. */
export * from './names';
export * from './schemas';
export * from './envelope';
export type * from './api';
export type * from './bridge';
export * from './encounter';
export * from './audio-chunk';
export * from './history';
export * from './visit-links';
export * from './privacy';
export * from './recording';
