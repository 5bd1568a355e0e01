import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { lines, parseIntAuto } from './text.js';
import { asArray, asCount, asObject, asText, at, compact } from './unknown.js';

/** SANICAP (id-ctrl bytes 328-331): which sanitize actions the controller supports. */
export interface NvmeSanitizeCaps {
  readonly crypto: boolean;
  readonly block: boolean;
  readonly overwrite: boolean;
  /** Bit 29 NDI: the No-Deallocate-After-Sanitize bit is NOT supported (media is always deallocated). */
  readonly noDeallocInhibited: boolean;
}

/** FNA (Format NVM Attributes): scope of format and whether SES=2 crypto erase exists. */
export interface NvmeFormatAttributes {
  /** Bit 0: format applies to all namespaces of the controller. */
  readonly formatAllNamespaces: boolean;
  /** Bit 1: secure erase (SES=1/2) applies to all namespaces. */
  readonly eraseAllNamespaces: boolean;
  /** Bit 2: cryptographic erase is supported as part of Format (SES=2). */
  readonly cryptoEraseSupported: boolean;
}

/** The parts of Identify Controller that the erase planner and the fingerprint use. */
export interface NvmeIdCtrl {
  readonly vendorId?: number;
  readonly serial?: string;
  readonly model?: string;
  readonly firmware?: string;
  readonly oacs?: number;
  /** OACS bit 1. */
  readonly formatSupported?: boolean;
  /** OACS bit 0: Security Send/Receive, the TCG Opal path. */
  readonly securitySendReceive?: boolean;
  readonly sanicap?: number;
  /** Undefined when the tool did not print SANICAP (nvme-cli before 1.6): treat as not supported. */
  readonly sanitize?: NvmeSanitizeCaps;
  readonly fna?: number;
  readonly format?: NvmeFormatAttributes;
  readonly totalCapacityBytes?: number;
  readonly namespaceCount?: number;
}

/** Decodes SANICAP bits. */
export function decodeSanicap(sanicap: number): NvmeSanitizeCaps {
  return {
    crypto: (sanicap & 0b001) !== 0,
    block: (sanicap & 0b010) !== 0,
    overwrite: (sanicap & 0b100) !== 0,
    noDeallocInhibited: (sanicap & (1 << 29)) !== 0,
  };
}

/** Decodes FNA bits. */
export function decodeFna(fna: number): NvmeFormatAttributes {
  return {
    formatAllNamespaces: (fna & 0b001) !== 0,
    eraseAllNamespaces: (fna & 0b010) !== 0,
    cryptoEraseSupported: (fna & 0b100) !== 0,
  };
}

function idCtrlFrom(get: (key: string) => unknown): ParseResult<NvmeIdCtrl> {
  const serial = asText(get('sn'));
  const model = asText(get('mn'));
  if (!serial && !model) return unparsable('no serial (sn) or model (mn) in identify controller output');
  // Numbers are plain in JSON and "0x17"/"0" in -H text; both paths arrive here as unknown.
  const num = (key: string) => {
    const v = get(key);
    return typeof v === 'string' ? parseIntAuto(v) : asCount(v);
  };
  const oacs = num('oacs');
  const sanicap = num('sanicap');
  const fna = num('fna');
  return parsed(
    compact<NvmeIdCtrl>({
      vendorId: num('vid'),
      serial,
      model,
      firmware: asText(get('fr')),
      oacs,
      formatSupported: oacs === undefined ? undefined : (oacs & 0b10) !== 0,
      securitySendReceive: oacs === undefined ? undefined : (oacs & 0b1) !== 0,
      sanicap,
      sanitize: sanicap === undefined ? undefined : decodeSanicap(sanicap),
      fna,
      format: fna === undefined ? undefined : decodeFna(fna),
      totalCapacityBytes: num('tnvmcap'),
      namespaceCount: num('nn'),
    }),
  );
}

/** Parses `nvme id-ctrl -o json` (nvme-cli 1.x and 2.x). */
export function parseNvmeIdCtrlJson(input: unknown): ParseResult<NvmeIdCtrl> {
  const json = asObject(input);
  if (!json) return unparsable('identify controller JSON is not an object');
  return idCtrlFrom((key) => json[key]);
}

/** Top-level `key : value` lines of nvme-cli's text output; the indented bit decodes are skipped. */
function topLevelFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of lines(text)) {
    const m = /^([a-z][a-z0-9_]*)\s*:\s?(.*)$/.exec(line);
    if (m?.[1] && m[2] !== undefined && !fields.has(m[1])) fields.set(m[1], m[2]);
  }
  return fields;
}

/** Parses `nvme id-ctrl -H` (or plain) text. */
export function parseNvmeIdCtrlText(text: string): ParseResult<NvmeIdCtrl> {
  if (!/^NVME Identify Controller:/m.test(text)) return unparsable('not nvme id-ctrl output');
  const fields = topLevelFields(text);
  return idCtrlFrom((key) => fields.get(key));
}

/** One LBA format of a namespace. */
export interface NvmeLbaFormat {
  readonly index: number;
  readonly dataSize: number;
  readonly metadataSize: number;
  readonly relativePerformance?: number;
  readonly inUse: boolean;
}

/** Identify Namespace facts. */
export interface NvmeIdNs {
  readonly sizeBlocks?: number;
  readonly capacityBlocks?: number;
  readonly flbas?: number;
  readonly lbaFormats: readonly NvmeLbaFormat[];
  /** Data size of the LBA format in use, i.e. the logical sector size. */
  readonly logicalBlockSize?: number;
  readonly nvmCapacityBytes?: number;
  readonly eui64?: string;
  readonly nguid?: string;
}

const meaningfulId = (value: string | undefined) => (value && !/^0+$/.test(value) ? value : undefined);

function withCurrent(base: Omit<NvmeIdNs, 'logicalBlockSize'>): NvmeIdNs {
  const current = base.lbaFormats.find((f) => f.inUse);
  return compact<NvmeIdNs>({ ...base, logicalBlockSize: current?.dataSize });
}

/** Parses `nvme id-ns -H` text. */
export function parseNvmeIdNsText(text: string): ParseResult<NvmeIdNs> {
  if (!/^NVME Identify Namespace/m.test(text)) return unparsable('not nvme id-ns output');
  const fields = topLevelFields(text);
  const num = (key: string) => {
    const v = fields.get(key);
    return v === undefined ? undefined : parseIntAuto(v);
  };
  const lbaFormats: NvmeLbaFormat[] = [];
  for (const line of lines(text)) {
    const m = /^LBA Format\s+(\d+)\s*:\s*Metadata Size:\s*(\d+)\s+bytes - Data Size:\s*(\d+) bytes - Relative Performance:\s*(0x[0-9a-f]+|\d+)(.*)$/i.exec(
      line,
    );
    if (!m?.[1] || !m[2] || !m[3] || !m[4]) continue;
    lbaFormats.push({
      index: Number(m[1]),
      metadataSize: Number(m[2]),
      dataSize: Number(m[3]),
      relativePerformance: parseIntAuto(m[4]) ?? 0,
      inUse: /\(in use\)/.test(m[5] ?? ''),
    });
  }
  const flbas = num('flbas');
  return parsed(
    withCurrent({
      sizeBlocks: num('nsze'),
      capacityBlocks: num('ncap'),
      flbas,
      lbaFormats,
      nvmCapacityBytes: num('nvmcap'),
      eui64: meaningfulId(fields.get('eui64')?.trim()),
      nguid: meaningfulId(fields.get('nguid')?.trim()),
    }),
  );
}

/** Parses `nvme id-ns -o json` (`lbafs: [{ms, ds, rp}]`, ds as a power of two). */
export function parseNvmeIdNsJson(input: unknown): ParseResult<NvmeIdNs> {
  const json = asObject(input);
  if (!json) return unparsable('identify namespace JSON is not an object');
  const flbas = asCount(json.flbas);
  // FLBAS bits 3:0 select the format (bits 6:5 extend it past 16 formats in NVMe 2.0).
  const selected = flbas === undefined ? undefined : (flbas & 0xf) | ((flbas >> 1) & 0x30);
  const lbaFormats = (asArray(json.lbafs) ?? []).flatMap((f, index): NvmeLbaFormat[] => {
    const ds = asCount(at(f, 'ds'));
    if (ds === undefined) return [];
    return [{ index, dataSize: 2 ** ds, metadataSize: asCount(at(f, 'ms')) ?? 0, relativePerformance: asCount(at(f, 'rp')), inUse: index === selected }];
  });
  return parsed(
    withCurrent({
      sizeBlocks: asCount(json.nsze),
      capacityBlocks: asCount(json.ncap),
      flbas,
      lbaFormats: lbaFormats.map((f) => compact(f)),
      nvmCapacityBytes: asCount(json.nvmcap),
      eui64: meaningfulId(asText(json.eui64)),
      nguid: meaningfulId(asText(json.nguid)),
    }),
  );
}
