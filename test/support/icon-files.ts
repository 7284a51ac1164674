/**
 * Readers for the three icon containers the installers use, enough to say which pictures of which
 * sizes they hold: PNG (its IHDR), Windows .ico (its directory) and macOS .icns (its entries).
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(data: Buffer): boolean {
  return data.subarray(0, 8).equals(PNG_SIGNATURE) && data.toString('latin1', 12, 16) === 'IHDR';
}

/** Width and height from the IHDR chunk, which a PNG always starts with. */
export function pngSize(data: Buffer): { width: number; height: number } {
  if (!isPng(data)) throw new Error('not a PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** Each picture of an .ico: its size (the directory says 0 for 256) and whether it is a PNG. */
export function icoImages(data: Buffer): { width: number; height: number; png: boolean }[] {
  if (data.readUInt16LE(0) !== 0 || data.readUInt16LE(2) !== 1) throw new Error('not an .ico');
  return Array.from({ length: data.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + i * 16;
    const offset = data.readUInt32LE(entry + 12);
    const length = data.readUInt32LE(entry + 8);
    return {
      width: data.readUInt8(entry) || 256,
      height: data.readUInt8(entry + 1) || 256,
      png: isPng(data.subarray(offset, offset + length)),
    };
  });
}

/** Each entry of an .icns: its four-letter type and its data. */
export function icnsEntries(data: Buffer): { type: string; data: Buffer }[] {
  if (data.toString('latin1', 0, 4) !== 'icns' || data.readUInt32BE(4) !== data.length) {
    throw new Error('not an .icns (or its length is wrong)');
  }
  const entries: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at + 4);
    if (length < 8 || at + length > data.length) throw new Error(`bad .icns entry length at ${at}`);
    entries.push({ type: data.toString('latin1', at, at + 4), data: data.subarray(at + 8, at + length) });
    at += length;
  }
  return entries;
}
