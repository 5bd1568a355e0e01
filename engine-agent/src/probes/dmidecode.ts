import { meaningfulDmi, meaningfulUuid } from '@erasure/shared';
import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { compact } from './unknown.js';
import { lines } from './text.js';

/** One SMBIOS structure as dmidecode prints it. */
export interface DmiRecord {
  readonly handle: string;
  readonly type: number;
  readonly title: string;
  /** `Key: value` lines, raw (placeholders not yet removed). */
  readonly props: Readonly<Record<string, string>>;
  /** Indented lists under a `Key:` line, e.g. BIOS `Characteristics`. */
  readonly lists: Readonly<Record<string, readonly string[]>>;
}

/** SMBIOS type 1. Placeholders ("To Be Filled By O.E.M.", all-zero UUID, ...) are undefined. */
export interface DmiSystem {
  readonly manufacturer?: string;
  readonly product?: string;
  readonly version?: string;
  readonly serial?: string;
  readonly uuid?: string;
  readonly sku?: string;
  readonly family?: string;
}

/** SMBIOS type 2. */
export interface DmiBaseboard {
  readonly manufacturer?: string;
  readonly product?: string;
  readonly version?: string;
  readonly serial?: string;
  readonly assetTag?: string;
}

/** SMBIOS type 0. */
export interface DmiBios {
  readonly vendor?: string;
  readonly version?: string;
  readonly releaseDate?: string;
  /** The firmware can boot UEFI; whether this boot did is a sysfs question, not a DMI one. */
  readonly uefiSupported?: boolean;
}

/** SMBIOS type 3. */
export interface DmiChassis {
  readonly manufacturer?: string;
  readonly type?: string;
  readonly serial?: string;
  readonly assetTag?: string;
}

/** SMBIOS type 17, one per slot; empty slots have no size. */
export interface DmiMemoryDevice {
  readonly locator?: string;
  readonly bankLocator?: string;
  readonly sizeBytes?: number;
  readonly formFactor?: string;
  readonly type?: string;
  readonly speedMts?: number;
  readonly manufacturer?: string;
  readonly serial?: string;
  readonly partNumber?: string;
}

/** SMBIOS type 39. */
export interface DmiPowerSupply {
  readonly name?: string;
  readonly manufacturer?: string;
  readonly serial?: string;
  readonly modelPartNumber?: string;
  readonly maxPowerWatts?: number;
}

/** Everything the agent uses from `dmidecode` output. */
export interface DmiInfo {
  readonly smbiosVersion?: string;
  readonly system?: DmiSystem;
  readonly baseboard?: DmiBaseboard;
  readonly bios?: DmiBios;
  readonly chassis?: DmiChassis;
  readonly memoryDevices: readonly DmiMemoryDevice[];
  /** Sum of the populated type-17 slots, undefined when no slot reports a size. */
  readonly memoryTotalBytes?: number;
  readonly powerSupplies: readonly DmiPowerSupply[];
  readonly records: readonly DmiRecord[];
}

/** UUIDs that several boards share, so they identify nothing (AMI's template value). */
const SHARED_PLACEHOLDER_UUIDS = new Set(['03000200-0400-0500-0006-000700080009']);
const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A DMI UUID only when it is well formed and not a known placeholder. */
export function dmiUuid(value: string | undefined): string | undefined {
  const uuid = meaningfulUuid(value);
  return uuid && UUID_FORM.test(uuid) && !SHARED_PLACEHOLDER_UUIDS.has(uuid) ? uuid : undefined;
}

const indentOf = (line: string): number => {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width += 1;
    else if (ch === '\t') width += 8;
    else break;
  }
  return width;
};

interface Draft {
  handle: string;
  type?: number;
  title?: string;
  propIndent?: number;
  lastKey?: string;
  props: Record<string, string>;
  lists: Record<string, string[]>;
}

/** Splits dmidecode text into records; handles both the modern and the 2.2-era layout. */
export function parseDmiRecords(text: string): DmiRecord[] {
  const records: DmiRecord[] = [];
  let draft: Draft | undefined;
  const flush = () => {
    if (draft?.type !== undefined && draft.title !== undefined) {
      records.push({ handle: draft.handle, type: draft.type, title: draft.title, props: draft.props, lists: draft.lists });
    }
  };
  for (const line of lines(text)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const handle = /^Handle (0x[0-9A-Fa-f]+)(?:, DMI type (\d+))?/.exec(trimmed);
    if (handle?.[1]) {
      flush();
      draft = { handle: handle[1], props: {}, lists: {} };
      if (handle[2] !== undefined) draft.type = Number(handle[2]);
      continue;
    }
    if (!draft) continue;
    // dmidecode 2.2 prints "DMI type N, M bytes." on its own line under the handle.
    const legacyType = /^DMI type (\d+)/.exec(trimmed);
    if (draft.type === undefined && legacyType?.[1]) {
      draft.type = Number(legacyType[1]);
      continue;
    }
    if (draft.title === undefined) {
      draft.title = trimmed;
      continue;
    }
    const indent = indentOf(line);
    draft.propIndent ??= indent;
    const pair = /^([^:]+?):(?:\s(.*))?$/.exec(trimmed);
    if (indent <= draft.propIndent && pair?.[1]) {
      draft.lastKey = pair[1];
      draft.props[pair[1]] = (pair[2] ?? '').trim();
    } else if (indent > draft.propIndent && draft.lastKey) {
      (draft.lists[draft.lastKey] ??= []).push(trimmed);
    }
  }
  flush();
  return records;
}

const UNITS: Record<string, number> = { bytes: 1, kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** "8 GB", "16384 MB" -> bytes (SMBIOS sizes are binary units); "No Module Installed" -> undefined. */
export function parseDmiSize(value: string | undefined): number | undefined {
  const m = /^(\d+)\s*(bytes|kB|MB|GB|TB)$/.exec(value?.trim() ?? '');
  if (!m?.[1] || !m[2]) return undefined;
  const unit = UNITS[m[2]];
  return unit === undefined ? undefined : Number(m[1]) * unit;
}

const firstOfType = (records: readonly DmiRecord[], type: number) => records.find((r) => r.type === type);
const field = (r: DmiRecord, key: string) => meaningfulDmi(r.props[key]);
const leadingInt = (value: string | undefined) => {
  const m = /^(\d+)/.exec(value?.trim() ?? '');
  return m?.[1] ? Number(m[1]) : undefined;
};

/** Parses full or partial (`-t N`) dmidecode output. */
export function parseDmidecode(text: string): ParseResult<DmiInfo> {
  if (/No SMBIOS nor DMI entry point found/i.test(text)) return unparsable('dmidecode found no SMBIOS/DMI table');
  const records = parseDmiRecords(text);
  if (records.length === 0) return unparsable('no DMI records in dmidecode output');

  const sys = firstOfType(records, 1);
  const board = firstOfType(records, 2);
  const bios = firstOfType(records, 0);
  const chassis = firstOfType(records, 3);
  const memoryDevices = records
    .filter((r) => r.type === 17)
    .map((r) =>
      compact<DmiMemoryDevice>({
        locator: field(r, 'Locator'),
        bankLocator: field(r, 'Bank Locator'),
        sizeBytes: parseDmiSize(r.props.Size),
        formFactor: field(r, 'Form Factor'),
        type: field(r, 'Type'),
        speedMts: leadingInt(r.props.Speed),
        manufacturer: field(r, 'Manufacturer'),
        serial: field(r, 'Serial Number'),
        partNumber: field(r, 'Part Number'),
      }),
    );
  const sizes = memoryDevices.map((d) => d.sizeBytes).filter((s): s is number => s !== undefined);
  const smbios = /SMBIOS (\d+\.\d+(?:\.\d+)?) present/.exec(text)?.[1];

  return parsed(
    compact<DmiInfo>({
      smbiosVersion: smbios,
      system: sys
        ? compact<DmiSystem>({
            manufacturer: field(sys, 'Manufacturer'),
            product: field(sys, 'Product Name'),
            version: field(sys, 'Version'),
            serial: field(sys, 'Serial Number'),
            uuid: dmiUuid(sys.props.UUID),
            sku: field(sys, 'SKU Number'),
            family: field(sys, 'Family'),
          })
        : undefined,
      baseboard: board
        ? compact<DmiBaseboard>({
            manufacturer: field(board, 'Manufacturer'),
            product: field(board, 'Product Name'),
            version: field(board, 'Version'),
            serial: field(board, 'Serial Number'),
            assetTag: field(board, 'Asset Tag'),
          })
        : undefined,
      bios: bios
        ? compact<DmiBios>({
            vendor: field(bios, 'Vendor'),
            version: field(bios, 'Version'),
            releaseDate: field(bios, 'Release Date'),
            uefiSupported: bios.lists.Characteristics?.includes('UEFI is supported') ?? undefined,
          })
        : undefined,
      chassis: chassis
        ? compact<DmiChassis>({
            manufacturer: field(chassis, 'Manufacturer'),
            type: field(chassis, 'Type'),
            serial: field(chassis, 'Serial Number'),
            assetTag: field(chassis, 'Asset Tag'),
          })
        : undefined,
      memoryDevices,
      memoryTotalBytes: sizes.length > 0 ? sizes.reduce((a, b) => a + b, 0) : undefined,
      powerSupplies: records
        .filter((r) => r.type === 39)
        .map((r) =>
          compact<DmiPowerSupply>({
            name: field(r, 'Name'),
            manufacturer: field(r, 'Manufacturer'),
            serial: field(r, 'Serial Number'),
            modelPartNumber: field(r, 'Model Part Number'),
            maxPowerWatts: leadingInt(r.props['Max Power Capacity']),
          }),
        ),
      records,
    }),
  );
}
