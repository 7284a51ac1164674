/** Replaced at build time by electron.vite.config.ts (`define`): package.json's version. */
declare const __APP_VERSION__: string;
