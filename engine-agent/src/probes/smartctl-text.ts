import { parsed, unparsable, type ParseResult } from './parse-result.js';
import {
  attributeRaw,
  looksLikeUsbBridge,
  mediaTypeOf,
  parseAtaSecuritySummary,
  wearFromAttributes,
  type AtaAttribute,
  type DriveProtocol,
  type SmartReport,
} from './smart-report.js';
import { colonPairs, lines, parseGroupedInt } from './text.js';
import { compact } from './unknown.js';

/**
 * Parses smartctl's human-readable output (-i, -a, -x). The agent asks for JSON; this reader exists
 * for field captures and for smartctl builds whose JSON lacks a section (SCSI logs before 7.3).
 */
export function parseSmartctlText(text: string): ParseResult<SmartReport> {
  if (!/=== START OF INFORMATION SECTION ===/.test(text)) {
    return unparsable('no information section in smartctl output');
  }
  const info = colonPairs(text);
  const get = (...keys: string[]) => keys.map((k) => info.get(k)).find((v) => v !== undefined && v !== '');

  const protocol: DriveProtocol = info.has('Model Number')
    ? 'NVMe'
    : info.has('Device Model') || info.has('ATA Version is')
      ? 'ATA'
      : 'SCSI';
  const model = get('Device Model', 'Model Number', 'Product');
  const rotation = get('Rotation Rate');
  const rotationRpm = rotation === undefined ? undefined : /solid state/i.test(rotation) ? 0 : leadingInt(rotation);
  const { logical, physical } = sectorSizes(info);
  const attributes = attributeTable(text);
  const nvmeUsed = percent(get('Percentage Used'));
  const scsiUsed = /Percentage used endurance indicator:\s*(\d+)%/i.exec(text)?.[1];
  const statUsed = /^0x07\s+\S+\s+\d+\s+(\d+)\s+\S+\s+Percentage Used Endurance Indicator/m.exec(text)?.[1];
  const health = /overall-health self-assessment test result:\s*(\w+)/.exec(text)?.[1] ?? get('SMART Health Status');
  const scsiHours = /power on time, hours:minutes\s+(\d+):/.exec(text)?.[1];
  const tempText = get('Temperature', 'Current Drive Temperature') ?? /Current temperature = (\d+)/.exec(text)?.[1];

  return parsed(
    compact<SmartReport>({
      protocol,
      model,
      vendor: protocol === 'SCSI' ? get('Vendor') : undefined,
      serial: get('Serial Number', 'Serial number'),
      firmware: get('Firmware Version', 'Revision'),
      capacityBytes: groupedPrefix(get('User Capacity', 'Total NVM Capacity')),
      logicalSectorSize: logical ?? leadingInt(get('Namespace 1 Formatted LBA Size')),
      physicalSectorSize: physical,
      rotationRpm,
      mediaType: mediaTypeOf(protocol, rotationRpm),
      formFactor: get('Form Factor'),
      transport:
        protocol === 'NVMe'
          ? 'NVMe'
          : (/^(SATA [\d.]+)/.exec(get('SATA Version is') ?? '')?.[1] ?? /^(\w+)/.exec(get('Transport protocol') ?? '')?.[1]),
      viaUsbBridge: looksLikeUsbBridge(undefined, undefined, model),
      viaRaidController: false,
      healthPassed: health === undefined ? undefined : /^(PASSED|OK)$/i.test(health),
      powerOnHours:
        groupedPrefix(get('Power On Hours')) ?? attributeRaw(attributes, 9) ?? (scsiHours ? Number(scsiHours) : undefined),
      temperatureC: leadingInt(tempText) ?? attributeRaw(attributes, 194) ?? attributeRaw(attributes, 190),
      percentageUsed:
        nvmeUsed ?? (scsiUsed ? Number(scsiUsed) : undefined) ?? (statUsed ? Number(statUsed) : undefined) ?? wearFromAttributes(attributes),
      reallocatedSectors: attributeRaw(attributes, 5) ?? groupedPrefix(get('Elements in grown defect list')),
      pendingSectors: attributeRaw(attributes, 197),
      mediaErrors: groupedPrefix(get('Media and Data Integrity Errors')),
      ataSecurity: parseAtaSecuritySummary(get('ATA Security is')),
      trimSupported: get('TRIM Command') === undefined ? undefined : /^Available/.test(get('TRIM Command') ?? ''),
      messages: [],
    }),
  );
}

function leadingInt(text: string | undefined): number | undefined {
  const m = /^\s*(\d+)/.exec(text ?? '');
  return m?.[1] ? Number(m[1]) : undefined;
}

function percent(text: string | undefined): number | undefined {
  const m = /^(\d+)%/.exec(text ?? '');
  return m?.[1] ? Number(m[1]) : undefined;
}

/** "960,193,626,112 bytes [960 GB]" or "7 681 501 126 656 bytes [7,68 TB]" -> the integer before the unit. */
function groupedPrefix(text: string | undefined): number | undefined {
  const m = /^([\d,.\s\u00a0]+?)(?:\s*(?:bytes|\[)|$)/.exec(text ?? '');
  return m?.[1] ? parseGroupedInt(m[1]) : undefined;
}

function sectorSizes(info: Map<string, string>): { logical?: number; physical?: number } {
  const combined = info.get('Sector Size') ?? info.get('Sector Sizes');
  if (combined) {
    const same = /^(\d+) bytes logical\/physical/.exec(combined);
    if (same?.[1]) return { logical: Number(same[1]), physical: Number(same[1]) };
    const split = /^(\d+) bytes logical, (\d+) bytes physical/.exec(combined);
    if (split?.[1] && split[2]) return { logical: Number(split[1]), physical: Number(split[2]) };
  }
  return { logical: leadingInt(info.get('Logical block size')), physical: leadingInt(info.get('Physical block size')) };
}

/** Rows of the ATA attribute table in either layout (-A with hex FLAG and TYPE columns, or -x FLAGS). */
function attributeTable(text: string): AtaAttribute[] {
  const rows: AtaAttribute[] = [];
  let inTable = false;
  for (const line of lines(text)) {
    if (/^ID#\s+ATTRIBUTE_NAME/.test(line)) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (line.trim() === '') {
      inTable = false;
      continue;
    }
    const tokens = line.trim().split(/\s+/);
    const [id, name, flag, value] = tokens;
    // The -x legend ("||||||_ K auto-keep") follows the rows; anything that is not a row is skipped.
    if (!id || !/^\d{1,3}$/.test(id) || !name || !flag || !value || !/^\d+$/.test(value)) continue;
    // -A layout: ID NAME FLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW; -x: ID NAME FLAGS VALUE WORST THRESH FAIL RAW.
    const rawToken = flag.startsWith('0x') ? tokens[9] : tokens[7];
    const raw = leadingInt(rawToken);
    rows.push(compact<AtaAttribute>({ id: Number(id), name, value: Number(value), raw }));
  }
  return rows;
}
