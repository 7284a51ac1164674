import { extractAll } from '@electron/asar';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The app as electron-builder packs it, on a machine that cannot download the Electron runtime:
 * the real electron-builder, with the project's electron-builder.yml and afterPack hook, packs into
 * a stand-in Electron distribution. Only the Electron binary is missing from the result, and the
 * installers (deb, NSIS, dmg) are not made: `--dir` stops at the unpacked app.
 */

/**
 * Electron's fuse wire as it ships (docs/tutorial/fuses.md, "Default"), one ASCII digit per fuse in
 * FuseV1Options order: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar
 * integrity off, only-from-asar off, browser V8 snapshot off, file:// privileges on, wasm trap
 * handlers on. Every fuse the app sets differs from its default, so a hook that did not run shows.
 */
const ELECTRON_DEFAULT_FUSES = '100100011';
/** What @electron/fuses searches the binary for (it does not export it). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * A folder electron-builder accepts as an unpacked Electron (`electronDist`): an `electron` file
 * that carries the fuse wire where @electron/fuses looks for it (after its sentinel: wire version 1,
 * the wire's length, the wire), and an empty resources folder for the app.
 */
export function writeStandInElectron(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const wire = Buffer.from(ELECTRON_DEFAULT_FUSES, 'latin1');
  const binary = join(dir, 'electron');
  writeFileSync(
    binary,
    Buffer.concat([
      Buffer.from('#!/bin/sh\n# stands in for the Electron runtime; it cannot run the app\nexit 1\n'),
      Buffer.from(FUSE_SENTINEL, 'latin1'),
      Buffer.from([1, wire.length]),
      wire,
    ]),
  );
  chmodSync(binary, 0o755);
}

export interface PackedApp {
  /** electron-builder's linux-unpacked folder. */
  appOutDir: string;
  /** The Electron binary, renamed to linux.executableName, with its fuses flipped. */
  executable: string;
  /** resources/app.asar and beside it app.asar.unpacked. */
  asar: string;
}

/**
 * Runs the electron-builder command line as `npm run dist` does, for Linux as a folder, into
 * `outDir`. Rejects with electron-builder's own output when it fails.
 */
export async function packForLinux(options: {
  projectDir: string;
  electronDist: string;
  outDir: string;
}): Promise<PackedApp> {
  const cli = join(options.projectDir, 'node_modules', 'electron-builder', 'cli.js');
  const args = [
    cli,
    '--linux',
    'dir',
    '--publish',
    'never',
    `-c.electronDist=${options.electronDist}`,
    `-c.directories.output=${options.outDir}`,
  ];
  try {
    await promisify(execFile)(process.execPath, args, {
      cwd: options.projectDir,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`electron-builder failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
  const appOutDir = join(options.outDir, 'linux-unpacked');
  return {
    appOutDir,
    executable: join(appOutDir, 'ambient-scribe'),
    asar: join(appOutDir, 'resources', 'app.asar'),
  };
}

/** Unpacks app.asar (and the files kept beside it in app.asar.unpacked) into `dest`. */
export function extractApp(packed: PackedApp, dest: string): string {
  extractAll(packed.asar, dest);
  return dest;
}
