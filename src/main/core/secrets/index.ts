export * from './secret-box';
export { createFileSecretBox, type FileSecretBoxOptions } from './file-secret-box';
