import { parsed, unparsable, type ParseResult } from './parse-result.js';
import type { TcgFamily, TcgState } from './tcg-discovery.js';

/**
 * The binary TCG Level 0 Discovery response (TCG Storage Architecture Core Spec 2.01 §3.3.6), as
 * a drive returns it to SECURITY PROTOCOL IN, protocol 0x01, ComID 0x0001: a 48-byte header whose
 * first 4 bytes (big-endian) give the length of the rest, then feature descriptors, each a 2-byte
 * feature code, a version nibble, a 1-byte length of its data and that data.
 */
const HEADER_BYTES = 48;
const LOCKING = 0x0002;

/**
 * The Locking feature's flags byte (its byte 4), bit 0 first: the same bits as sedutil's
 * Discovery0LockingFeatures, the kernel's sed-opal.c (LOCKING_SUPPORTED_MASK 0x01 … MBR_DONE 0x20)
 * and the Opal SSC table "Level 0 Discovery - Locking Feature Descriptor".
 */
const FLAG = { lockingSupported: 0x01, lockingEnabled: 0x02, locked: 0x04, mediaEncryption: 0x08, mbrShadowEnabled: 0x10, mbrDone: 0x20 } as const;

/**
 * The SSC feature codes, most specific first (a drive may list Opal 2 beside Opal 1 or Pyrite);
 * codes as sedutil's DtaStructures.h and the kernel's sed-opal.c name them. 0x0003 Geometry,
 * 0x0201 Single User Mode, 0x0202 DataStore, 0x0402 Block SID, 0x0403 Namespace Locking, 0x0404
 * Data Removal Mechanism and vendor codes (0xC000–0xFFFF) are features, not an SSC: skipped.
 */
const FAMILIES: readonly (readonly [number, TcgFamily])[] = [
  [0x0203, 'Opal 2'],
  [0x0200, 'Opal 1'],
  [0x0304, 'Ruby'],
  [0x0303, 'Pyrite 2'],
  [0x0302, 'Pyrite 1'],
  [0x0301, 'Opalite'],
  [0x0100, 'Enterprise'],
];

/** One feature descriptor: its code and data (after the 4-byte descriptor header). */
export interface Level0Feature {
  readonly code: number;
  readonly version: number;
  readonly data: Uint8Array;
}

/**
 * The feature descriptors of a level 0 discovery response. The header's length counts the bytes
 * after its own 4; a response shorter than that (a capture cut at the header's length, as
 * sedutil's debug dump prints it) is read as far as it goes, and a descriptor cut short keeps the
 * bytes that arrived. Some drives (HGST SSD400M, sedutil PR #233) count only the descriptors, not
 * the 44 header bytes after the length: a length under the header's size is read that way.
 */
export function level0Features(bytes: Uint8Array): ParseResult<readonly Level0Feature[]> {
  if (bytes.length < 4) return unparsable(`a level 0 discovery response has a 48-byte header; got ${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const declared = view.getUint32(0);
  if (declared === 0) return parsed([]);
  const end = Math.min(bytes.length, declared < HEADER_BYTES ? HEADER_BYTES + declared : declared + 4);
  if (bytes.length < HEADER_BYTES) return unparsable(`a level 0 discovery response has a 48-byte header; got ${bytes.length} bytes`);
  const features: Level0Feature[] = [];
  for (let at = HEADER_BYTES; at + 4 <= end; ) {
    const length = bytes[at + 3]!;
    features.push({ code: view.getUint16(at), version: bytes[at + 2]! >> 4, data: bytes.subarray(at + 4, Math.min(end, at + 4 + length)) });
    at += 4 + length;
  }
  return parsed(features);
}

/**
 * A level 0 discovery as a `TcgState`, or `null` when the drive answers with no Locking feature
 * (nothing on it can lock the data: not self-encrypting, as nvme-cli says "does not support SED
 * Opal" for the same answer).
 */
export function parseLevel0Discovery(bytes: Uint8Array): ParseResult<TcgState | null> {
  const features = level0Features(bytes);
  if (!features.ok) return features;
  const locking = features.value.find((f) => f.code === LOCKING);
  if (!locking) return parsed(null);
  const flags = locking.data[0];
  if (flags === undefined) return unparsable('the Locking feature descriptor carries no flags byte');
  const family = FAMILIES.find(([code]) => features.value.some((f) => f.code === code))?.[1];
  const bit = (mask: number) => (flags & mask) !== 0;
  return parsed({
    ...(family ? { family } : {}),
    lockingSupported: bit(FLAG.lockingSupported),
    lockingEnabled: bit(FLAG.lockingEnabled),
    locked: bit(FLAG.locked),
    mediaEncryption: bit(FLAG.mediaEncryption),
    mbrShadowEnabled: bit(FLAG.mbrShadowEnabled),
    mbrDone: bit(FLAG.mbrDone),
  });
}

/**
 * The bytes of sg_raw's hex dump (sg3_utils `hex2stderr(buf, len, 0)`, after "Received N bytes of
 * data:"): lines of an offset, up to 16 hex bytes (an extra space after the 8th) and, from column
 * 60, their ASCII. The offsets must follow on, so a dump cut or mixed with other lines is refused.
 */
export function parseSgRawHexDump(stderr: string): ParseResult<Uint8Array> {
  const head = /^Received (\d+) bytes of data:\s*$/m.exec(stderr);
  if (!head) return unparsable('no "Received N bytes of data" in the sg_raw output');
  const expected = Number(head[1]);
  const out: number[] = [];
  // The lines after the one that says how many bytes came.
  for (const line of stderr.slice(head.index).split('\n').slice(1)) {
    if (out.length >= expected) break;
    const m = /^ *([0-9a-f]+) {2,}((?:[0-9a-f]{2} {1,2}){0,15}[0-9a-f]{2})/i.exec(line.slice(0, 59));
    if (!m) break;
    if (parseInt(m[1]!, 16) !== out.length) return unparsable(`the hex dump skips from byte ${out.length} to ${m[1]}`);
    for (const byte of m[2]!.trim().split(/\s+/)) out.push(parseInt(byte, 16));
  }
  if (out.length !== expected) return unparsable(`sg_raw said ${expected} bytes and dumped ${out.length}`);
  return parsed(Uint8Array.from(out));
}
