import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { compact } from './unknown.js';

/** Identity of a display from its EDID base block. */
export interface EdidInfo {
  /** Three-letter PNP id, e.g. `DEL`, `LGD`, `BOE`. */
  readonly manufacturerId: string;
  readonly productCode: number;
  /** 32-bit serial from bytes 12-15; undefined when 0 (unset). */
  readonly serialNumber?: number;
  /** Display Product Serial Number descriptor (0xFF), the panel's printed serial. */
  readonly serialText?: string;
  /** Display Product Name descriptor (0xFC). */
  readonly name?: string;
  /** Alphanumeric descriptors (0xFE); laptop panels put the part number here (`LP125WX112403`). */
  readonly texts: readonly string[];
  readonly year?: number;
  readonly week?: number;
  readonly version: string;
  readonly extensionBlocks: number;
  readonly digital: boolean;
}

const HEADER = [0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00];

const descriptorText = (bytes: Uint8Array): string | undefined => {
  const text = String.fromCharCode(...bytes).split('\n')[0]?.trim();
  return text && !/^0+$/.test(text) ? text : undefined;
};

/** Parses raw EDID bytes as /sys/class/drm/<connector>/edid gives them. */
export function parseEdid(bytes: Uint8Array): ParseResult<EdidInfo> {
  if (bytes.length < 128) return unparsable(`EDID too short (${bytes.length} bytes)`);
  if (!HEADER.every((b, i) => bytes[i] === b)) return unparsable('EDID header missing');
  const base = bytes.subarray(0, 128);
  if (base.reduce((sum, b) => (sum + b) & 0xff, 0) !== 0) return unparsable('EDID base block checksum mismatch');
  const at = (i: number) => base[i] ?? 0;
  const id = (at(8) << 8) | at(9);
  const letter = (v: number) => String.fromCharCode(64 + v);
  const manufacturerId = letter((id >> 10) & 0x1f) + letter((id >> 5) & 0x1f) + letter(id & 0x1f);
  const serial = (at(12) | (at(13) << 8) | (at(14) << 16) | (at(15) << 24)) >>> 0;
  const texts: string[] = [];
  let name: string | undefined;
  let serialText: string | undefined;
  for (let offset = 54; offset < 126; offset += 18) {
    // Display descriptors start with a zero pixel clock; detailed timings do not.
    if (at(offset) !== 0 || at(offset + 1) !== 0) continue;
    const value = descriptorText(base.subarray(offset + 5, offset + 18));
    const tag = at(offset + 3);
    if (tag === 0xfc) name ??= value;
    else if (tag === 0xff) serialText ??= value;
    else if (tag === 0xfe && value) texts.push(value);
  }
  const week = at(16);
  return parsed(
    compact<EdidInfo>({
      manufacturerId,
      productCode: at(10) | (at(11) << 8),
      serialNumber: serial === 0 ? undefined : serial,
      serialText,
      name,
      texts,
      year: at(17) === 0 ? undefined : 1990 + at(17),
      week: week === 0 || week === 0xff ? undefined : week,
      version: `${at(18)}.${at(19)}`,
      extensionBlocks: at(126),
      digital: (at(20) & 0x80) !== 0,
    }),
  );
}

/** edid-decode's text report, reduced to the identity and its conformity verdict. */
export interface EdidDecodeReport {
  readonly edid: EdidInfo;
  readonly conformity?: 'PASS' | 'FAIL';
}

/** Parses `edid-decode` output by decoding its hex dump, so both paths share one decoder. */
export function parseEdidDecodeText(text: string): ParseResult<EdidDecodeReport> {
  const hex = /edid-decode \(hex\):\s*\n([\s\S]*?)\n-{4,}/.exec(text)?.[1];
  if (!hex) return unparsable('no "edid-decode (hex):" block');
  const pairs = hex.match(/\b[0-9a-f]{2}\b/gi) ?? [];
  const edid = parseEdid(Uint8Array.from(pairs.map((p) => Number.parseInt(p, 16))));
  if (!edid.ok) return edid;
  const conformity = /EDID conformity: (PASS|FAIL)/.exec(text)?.[1] as 'PASS' | 'FAIL' | undefined;
  return parsed(compact<EdidDecodeReport>({ edid: edid.value, conformity }));
}
