/** What the app weighs: the built renderer by kind of file, and the installed dependencies on disk. */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleSizes {
  totalBytes: number;
  files: number;
  jsBytes: number;
  /** gzip (zlib, default level 6) of each JS file, summed. */
  jsGzipBytes: number;
  wasmBytes: number;
  modelBytes: number;
  /** HTML, CSS, images. */
  otherBytes: number;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

export function bundleSizes(dir: string): BundleSizes {
  const sizes: BundleSizes = {
    totalBytes: 0,
    files: 0,
    jsBytes: 0,
    jsGzipBytes: 0,
    wasmBytes: 0,
    modelBytes: 0,
    otherBytes: 0,
  };
  for (const file of filesUnder(dir)) {
    const bytes = lstatSync(file).size;
    sizes.totalBytes += bytes;
    sizes.files += 1;
    const ext = extname(file);
    if (ext === '.js' || ext === '.mjs') {
      sizes.jsBytes += bytes;
      sizes.jsGzipBytes += gzipSync(readFileSync(file)).length;
    } else if (ext === '.wasm') sizes.wasmBytes += bytes;
    else if (ext === '.onnx') sizes.modelBytes += bytes;
    else sizes.otherBytes += bytes;
  }
  return sizes;
}

export interface DiskUse {
  /** Allocated blocks, as `du` counts (st_blocks × 512). */
  diskBytes: number;
  /** File sizes, as `du -b` counts. */
  apparentBytes: number;
}

/**
 * Disk use of the trees under `roots`, each inode once, symlinks not followed; with `skipNested`,
 * no package's own node_modules (its packages are roots of their own when they are in the set).
 */
function diskUse(roots: string[], skipNested: boolean): DiskUse & { byRoot: Map<string, number> } {
  const seen = new Set<string>();
  const use = { diskBytes: 0, apparentBytes: 0, byRoot: new Map<string, number>() };
  const walk = (path: string): number => {
    const stat = lstatSync(path);
    const key = `${stat.dev}:${stat.ino}`;
    if (seen.has(key)) return 0;
    seen.add(key);
    use.diskBytes += stat.blocks * 512;
    use.apparentBytes += stat.size;
    let bytes = stat.blocks * 512;
    if (!stat.isDirectory()) return bytes;
    for (const name of readdirSync(path)) {
      if (!(skipNested && name === 'node_modules')) bytes += walk(join(path, name));
    }
    return bytes;
  };
  for (const root of roots) use.byRoot.set(root, walk(root));
  return use;
}

/** Every package directory `npm ls --parseable --all` lists (not the project itself). */
function npmPackages(omitDev: boolean): string[] {
  const out = execFileSync('npm', ['ls', '--parseable', '--all', ...(omitDev ? ['--omit=dev'] : [])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const root = process.cwd();
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== root);
}

export interface DependencySizes {
  production: DiskUse & { packages: number; largest: { name: string; diskBytes: number }[] };
  /** Everything under node_modules (dev tools, Electron, the build chain, caches), walked whole. */
  all: DiskUse & { packages: number };
}

export function dependencySizes(): DependencySizes {
  const packages = npmPackages(true);
  const production = diskUse(packages, true);
  const all = diskUse([realpathSync('node_modules')], false);
  const largest = [...production.byRoot]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([dir, diskBytes]) => ({
      name: dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length),
      diskBytes,
    }));
  return {
    production: {
      diskBytes: production.diskBytes,
      apparentBytes: production.apparentBytes,
      packages: packages.length,
      largest,
    },
    // node_modules may be a symlink (a worktree sharing one install): start from what it points to.
    all: { diskBytes: all.diskBytes, apparentBytes: all.apparentBytes, packages: npmPackages(false).length },
  };
}
