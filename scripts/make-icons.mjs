#!/usr/bin/env node
// `npm run icons`: every app icon the installers need, generated from the one source image,
// resources/icon.svg (electron-builder.yml points at them; they are committed as build inputs):
//   resources/icons/NxN.png  the Linux icon set (deb)
//   resources/icon.ico       Windows (the executable, the installer, shortcuts)
//   resources/icon.icns      macOS
// Needs Debian's librsvg2-bin (rsvg-convert draws the SVG) and icoutils (icotool packs the .ico);
// .ci/run installs both. The same tools produce the same bytes, and a test checks that.
// Run: node scripts/make-icons.mjs [--out DIR]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SOURCE = 'resources/icon.svg';
// --out DIR writes elsewhere (the test regenerates into a temp dir and compares bytes).
const outFlag = process.argv.indexOf('--out');
const OUT = outFlag > 0 ? process.argv[outFlag + 1] : 'resources';

/** The hicolor sizes desktops look for, and 1024 for high-density screens. */
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Windows shows 16–64 in lists and the taskbar and 256 in large views; 256 is stored as PNG. */
const WINDOWS_SIZES = [16, 24, 32, 48, 64, 128];
const WINDOWS_LARGE = 256;
/**
 * The .icns entries Apple's iconutil writes: type → pixels (ic11–ic14 are the @2x versions of
 * 16–256). Each holds a PNG as is. Debian's png2icns would store 256 px and up as JPEG 2000, which
 * many tools cannot read, so the container (a type and a length before each PNG) is written here.
 */
const MAC_ENTRIES = [
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024],
];

const work = mkdtempSync(join(tmpdir(), 'icons-'));
try {
  const rendered = new Map();
  const png = (size) => {
    if (!rendered.has(size)) {
      const file = join(work, `${size}.png`);
      execFileSync('rsvg-convert', ['--width', String(size), '--height', String(size), SOURCE, '-o', file]);
      rendered.set(size, file);
    }
    return rendered.get(size);
  };

  mkdirSync(join(OUT, 'icons'), { recursive: true });
  for (const size of LINUX_SIZES) {
    writeFileSync(join(OUT, 'icons', `${size}x${size}.png`), readFileSync(png(size)));
  }

  execFileSync('icotool', [
    '--create',
    '--output',
    join(OUT, 'icon.ico'),
    ...WINDOWS_SIZES.map(png),
    `--raw=${png(WINDOWS_LARGE)}`,
  ]);

  writeFileSync(
    join(OUT, 'icon.icns'),
    icns(MAC_ENTRIES.map(([type, size]) => [type, readFileSync(png(size))])),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** An .icns file: 'icns' and the file length, then per entry its type, its length and its PNG. */
function icns(entries) {
  const chunks = entries.map(([type, data]) => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'latin1');
    header.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([header, data]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(8 + chunks.reduce((sum, chunk) => sum + chunk.length, 0), 4);
  return Buffer.concat([header, ...chunks]);
}
