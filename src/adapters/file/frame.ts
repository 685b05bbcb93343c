// Frames of the state files: a 20-byte header (magic, format version, length, checksums) before a JSON payload.
import { crc32 } from './crc32.js';

/** Format version written into every frame; frames of a higher version are refused. */
export const FORMAT_VERSION = 1;
/** Bytes of a frame header. */
export const HEADER_BYTES = 20;
const MAGIC = Buffer.from('CSIM', 'latin1');

/** A state file is damaged: names the file and the byte offset of the first bad frame. */
export class StateCorruptError extends Error {
  constructor(readonly file: string, readonly offset: number, readonly reason: string) {
    super(`corrupt state file ${file} at byte offset ${offset}: ${reason}. compsim never loads a partial state: `
      + 'restore the directory from a backup, or start with another --state directory');
    this.name = 'StateCorruptError';
  }
}

/** A state file was written by a newer compsim. */
export class StateVersionError extends Error {
  constructor(readonly file: string, readonly version: number) {
    super(`state file ${file} was written by a newer compsim (format version ${version}; this build reads version ${FORMAT_VERSION}). `
      + 'Upgrade compsim to open this state directory');
    this.name = 'StateVersionError';
  }
}

/**
 * One frame: `CSIM`, u16 format version, u16 reserved, u32 payload length, u32 CRC-32 of the
 * payload, u32 CRC-32 of the first 16 header bytes (all little-endian), then the UTF-8 payload.
 */
export function encodeFrame(payload: string): Buffer {
  const len = Buffer.byteLength(payload);
  const buf = Buffer.allocUnsafe(HEADER_BYTES + len);
  MAGIC.copy(buf, 0);
  buf.writeUInt16LE(FORMAT_VERSION, 4);
  buf.writeUInt16LE(0, 6);
  buf.writeUInt32LE(len, 8);
  buf.write(payload, HEADER_BYTES, 'utf8');
  buf.writeUInt32LE(crc32(buf.subarray(HEADER_BYTES)), 12);
  buf.writeUInt32LE(crc32(buf.subarray(0, 16)), 16);
  return buf;
}

/** A decoded frame and where it sits in its file. */
export interface Frame { offset: number; end: number; payload: Buffer }

/** The damaged end of the last journal file: a crash mid-append, cut off on the next start. */
export interface TornTail { offset: number; bytes: number; reason: string }

function allZero(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

/**
 * Splits a file into frames. With `allowTornTail` (the last journal file only) a damaged end is
 * reported as torn instead of corrupt when it looks like an interrupted append: a header or
 * payload cut short by the end of the file, or a zero-filled end (blocks a power cut left
 * unwritten). Anything else that fails a check is corruption; a frame of a newer version is refused.
 */
export function scanFrames(buf: Buffer, file: string, allowTornTail: boolean): { frames: Frame[]; torn: TornTail | null } {
  const frames: Frame[] = [];
  let at = 0;
  const torn = (reason: string) => ({ frames, torn: { offset: at, bytes: buf.length - at, reason } });
  while (at < buf.length) {
    if (buf.length - at < HEADER_BYTES) {
      if (allowTornTail) return torn(`frame header cut short (${buf.length - at} of ${HEADER_BYTES} bytes)`);
      throw new StateCorruptError(file, at, `frame header cut short (${buf.length - at} of ${HEADER_BYTES} bytes)`);
    }
    const headerOk = buf.compare(MAGIC, 0, 4, at, at + 4) === 0 && buf.readUInt32LE(at + 16) === crc32(buf.subarray(at, at + 16));
    if (!headerOk) {
      if (allowTornTail && allZero(buf, at)) return torn('zero-filled end');
      throw new StateCorruptError(file, at, buf.compare(MAGIC, 0, 4, at, at + 4) === 0 ? 'frame header checksum mismatch' : 'no frame starts here (bad magic)');
    }
    const version = buf.readUInt16LE(at + 4);
    if (version > FORMAT_VERSION) throw new StateVersionError(file, version);
    if (version === 0) throw new StateCorruptError(file, at, 'frame version 0');
    const end = at + HEADER_BYTES + buf.readUInt32LE(at + 8);
    if (end > buf.length) {
      const reason = `frame cut short (${buf.length - at} of ${end - at} bytes)`;
      if (allowTornTail) return torn(reason);
      throw new StateCorruptError(file, at, reason);
    }
    const payload = buf.subarray(at + HEADER_BYTES, end);
    if (crc32(payload) !== buf.readUInt32LE(at + 12)) {
      // A power cut can leave the last frame's blocks zero-filled; a flipped byte leaves no zero end.
      const last = allZero(buf, end);
      if (allowTornTail && last && payload.length > 0 && payload[payload.length - 1] === 0) return torn('zero-filled frame');
      throw new StateCorruptError(file, at, 'payload checksum mismatch');
    }
    frames.push({ offset: at, end, payload });
    at = end;
  }
  return { frames, torn: null };
}

/** Parses a frame's JSON payload; a payload that passed its checksum but is not JSON is corruption too. */
export function parseFrame(f: Frame, file: string): unknown {
  try {
    return JSON.parse(f.payload.toString('utf8')) as unknown;
  } catch (err) {
    throw new StateCorruptError(file, f.offset, `payload is not JSON (${(err as Error).message})`);
  }
}

/**
 * Parses a frame and checks its shape with `problem` (one of the checks of records.ts): a frame
 * that is JSON but not what belongs there is corruption at its offset, never a crash later.
 */
export function checkedFrame<T>(f: Frame, file: string, problem: (v: unknown) => string | null): T {
  const v = parseFrame(f, file);
  const bad = problem(v);
  if (bad) throw new StateCorruptError(file, f.offset, bad);
  return v as T;
}
