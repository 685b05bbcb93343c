// CRC-32 (IEEE, as zlib and PNG) for journal and snapshot frames: node:zlib's when the runtime has it, else a table.
import * as zlib from 'node:zlib';

/** The CRC of each byte value (256 entries, built once as the module loads). */
const table = ((): Uint32Array => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function tableCrc32(data: Uint8Array, prev = 0): number {
  let crc = (prev ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array, prev?: number) => number }).crc32;

/**
 * CRC-32 of `data`, continuing from `prev` (the CRC of what came before). Uses `zlib.crc32`
 * (Node 20.15+) and falls back to a table-driven implementation on older Node 20 releases.
 */
export const crc32: (data: Uint8Array, prev?: number) => number = native ? (d, p = 0) => native(d, p) >>> 0 : tableCrc32;

/** The table-driven implementation (exported so tests can check it against zlib's). */
export const crc32Fallback = tableCrc32;
