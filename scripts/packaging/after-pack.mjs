// electron-builder's afterPack hook (electron-builder.yml): flips the Electron fuses of the packaged
// binary with @electron/fuses, after the app is copied in and before electron-builder signs it, so
// the OS signature covers the flipped fuses. electron-builder's own `electronFuses` option would
// flip them with the older @electron/fuses it bundles; this uses the version pinned for our Electron.
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';
import { join } from 'node:path';

/**
 * Electron security checklist ("Consider fuses"): what a packaged Ambient Scribe can never do,
 * whatever its environment or command line says. docs/packaging.md explains each one.
 */
export const FUSES = {
  // ELECTRON_RUN_AS_NODE would turn the signed app into a plain Node.js runtime for any script.
  [FuseV1Options.RunAsNode]: false,
  // NODE_OPTIONS could preload code into the main process, which holds the service credentials.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect would open a debugger on the main process (and SIGUSR1 would start one).
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // Cookies on disk encrypted with the OS keychain, as Chrome does.
  [FuseV1Options.EnableCookieEncryption]: true,
  // The app's code is the signed app.asar and nothing else: checked against the hash in the
  // signed executable (macOS, Windows), and never replaced by a loose app/ folder beside it.
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // No page gets file:// privileges beyond a browser's (fetching other file:// URLs, service
  // workers, universal access between file:// frames): the window is served from app://scribe
  // (app-protocol.ts), and no page of this app is a file:// page. The main process's net.fetch of
  // the renderer's file:// URLs inside protocol.handle does not depend on it: Electron serves
  // net.fetch's file: requests with its asar-aware loader whatever the fuse says
  // (shell/common/api/electron_api_url_loader.cc, GetURLLoaderFactoryForURL); the fuse only
  // changes the file: loaders of pages and navigations (shell/browser/protocol_registry.cc).
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** Where electron-builder put the Electron binary that carries the fuse wire. */
function electronBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return join(appOutDir, `${packager.appInfo.productFilename}.app`);
  }
  if (electronPlatformName === 'win32') return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return join(appOutDir, packager.executableName);
}

// electron-builder's Arch enum: arm64 = 3, universal = 4.
const APPLE_SILICON_ARCHES = new Set([3, 4]);

export default async function afterPack(context) {
  await flipFuses(electronBinary(context), {
    version: FuseVersion.V1,
    // Flipping a fuse breaks the ad-hoc signature Apple Silicon needs to run an unsigned build;
    // a signed build is signed again by electron-builder right after this hook.
    resetAdHocDarwinSignature:
      context.electronPlatformName === 'darwin' && APPLE_SILICON_ARCHES.has(context.arch),
    ...FUSES,
  });
}
