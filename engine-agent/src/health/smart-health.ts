import type { SmartHealth } from '@erasure/shared';
import { parsed, parseJsonText, unparsable, type ParseResult } from '../probes/parse-result.js';
import { wearFromAttributes, type AtaAttribute } from '../probes/smart-report.js';
import { asArray, asBool, asCount, asObject, asText, at, compact } from '../probes/unknown.js';

/** Leading integer of an ATA attribute's raw string ("2725 (151 234 0)" is 2725 hours). */
function ataAttributes(json: unknown): AtaAttribute[] {
  return (asArray(at(json, 'ata_smart_attributes', 'table')) ?? []).flatMap((row) => {
    const id = asCount(at(row, 'id'));
    const name = asText(at(row, 'name'));
    const value = asCount(at(row, 'value'));
    if (id === undefined || name === undefined || value === undefined) return [];
    const lead = /^(\d+)/.exec(asText(at(row, 'raw', 'string')) ?? '')?.[1];
    const raw = lead !== undefined ? Number(lead) : asCount(at(row, 'raw', 'value'));
    return [compact<AtaAttribute>({ id, name, value, raw })];
  });
}

const raw = (attributes: readonly AtaAttribute[], id: number) => attributes.find((a) => a.id === id)?.raw;

function ataStatisticsPercentUsed(json: unknown): number | undefined {
  for (const page of asArray(at(json, 'ata_device_statistics', 'pages')) ?? []) {
    for (const entry of asArray(at(page, 'table')) ?? []) {
      if (asText(at(entry, 'name')) === 'Percentage Used Endurance Indicator') return asCount(at(entry, 'value'));
    }
  }
  return undefined;
}

/** SAS uncorrected read plus write errors (the error counter log), when the drive keeps it. */
function scsiUncorrected(json: unknown): number | undefined {
  const read = asCount(at(json, 'scsi_error_counter_log', 'read', 'total_uncorrected_errors'));
  const write = asCount(at(json, 'scsi_error_counter_log', 'write', 'total_uncorrected_errors'));
  return read === undefined && write === undefined ? undefined : (read ?? 0) + (write ?? 0);
}

const PROTOCOLS = { ata: 'ATA', nvme: 'NVMe', scsi: 'SCSI' } as const;

/**
 * The resale-relevant facts of one `smartctl --json -x` read: ATA reallocated, pending and
 * offline-uncorrectable sectors, UDMA CRC errors, power-on hours and wear; NVMe percentage used,
 * media errors and critical warning; SAS grown defects and uncorrected errors.
 */
export function parseSmartHealth(input: unknown): ParseResult<SmartHealth> {
  const json = asObject(input);
  if (!json || !asObject(json.smartctl)) return unparsable('not smartctl JSON (no "smartctl" object)');
  const exitStatus = asCount(at(json, 'smartctl', 'exit_status')) ?? 0;
  // Exit bit 1: the device could not be opened, so nothing in the document describes the drive.
  if ((exitStatus & 0b10) !== 0) {
    const message = asText(at(asArray(at(json, 'smartctl', 'messages'))?.[0], 'string'));
    return unparsable(message ?? `smartctl could not open the device (exit ${exitStatus})`);
  }
  const attributes = ataAttributes(json);
  const nvme = asObject(json.nvme_smart_health_information_log);
  const protocol = PROTOCOLS[(asText(at(json, 'device', 'protocol')) ?? '').toLowerCase() as keyof typeof PROTOCOLS];
  return parsed(
    compact<SmartHealth>({
      protocol,
      passed: asBool(at(json, 'smart_status', 'passed')),
      powerOnHours: asCount(at(json, 'power_on_time', 'hours')) ?? asCount(nvme?.power_on_hours) ?? raw(attributes, 9),
      percentageUsed:
        asCount(nvme?.percentage_used) ??
        asCount(json.scsi_percentage_used_endurance_indicator) ??
        ataStatisticsPercentUsed(json) ??
        wearFromAttributes(attributes),
      reallocatedSectors: raw(attributes, 5),
      pendingSectors: raw(attributes, 197),
      offlineUncorrectable: raw(attributes, 198),
      crcErrors: raw(attributes, 199),
      mediaErrors: asCount(nvme?.media_errors),
      criticalWarning: asCount(nvme?.critical_warning),
      grownDefects: asCount(json.scsi_grown_defect_list),
      uncorrectedErrors: scsiUncorrected(json),
    }),
  );
}

/** Text convenience: JSON.parse then {@link parseSmartHealth}. */
export function parseSmartHealthText(text: string): ParseResult<SmartHealth> {
  const json = parseJsonText(text);
  return json.ok ? parseSmartHealth(json.value) : json;
}
