import { parsed, parseJsonText, unparsable, type ParseResult } from './parse-result.js';
import {
  attributeRaw,
  looksLikeRaid,
  looksLikeUsbBridge,
  mediaTypeOf,
  parseAtaSecuritySummary,
  wearFromAttributes,
  type AtaAttribute,
  type DriveProtocol,
  type SmartReport,
} from './smart-report.js';
import { asArray, asBool, asCount, asNumber, asObject, asText, at, compact } from './unknown.js';

/** One entry of `smartctl --scan -j`. */
export interface SmartScanDevice {
  readonly name: string;
  readonly type?: string;
  readonly protocol?: DriveProtocol;
  readonly infoName?: string;
}

const PROTOCOLS: Record<string, DriveProtocol> = { ata: 'ATA', nvme: 'NVMe', scsi: 'SCSI' };
const protocolOf = (value: unknown): DriveProtocol | undefined => PROTOCOLS[asText(value)?.toLowerCase() ?? ''];

function attributesOf(json: unknown): AtaAttribute[] {
  return (asArray(at(json, 'ata_smart_attributes', 'table')) ?? []).flatMap((row) => {
    const id = asCount(at(row, 'id'));
    const name = asText(at(row, 'name'));
    const value = asCount(at(row, 'value'));
    if (id === undefined || name === undefined || value === undefined) return [];
    // raw.string starts with the meaningful number ("35 (Min/Max 21/44)"); raw.value packs extra bytes.
    const rawString = asText(at(row, 'raw', 'string'));
    const lead = rawString ? /^(\d+)/.exec(rawString)?.[1] : undefined;
    const raw = lead !== undefined ? Number(lead) : asCount(at(row, 'raw', 'value'));
    return [compact<AtaAttribute>({ id, name, value, raw })];
  });
}

function statisticPercentageUsed(json: unknown): number | undefined {
  for (const page of asArray(at(json, 'ata_device_statistics', 'pages')) ?? []) {
    for (const entry of asArray(at(page, 'table')) ?? []) {
      if (asText(at(entry, 'name')) === 'Percentage Used Endurance Indicator') return asCount(at(entry, 'value'));
    }
  }
  return undefined;
}

function transportOf(json: unknown, protocol?: DriveProtocol): string | undefined {
  if (protocol === 'NVMe') return 'NVMe';
  const sata = asText(at(json, 'sata_version', 'string'));
  if (sata) return sata;
  const scsi = asText(at(json, 'scsi_transport_protocol', 'name'));
  if (scsi) return scsi.split(' ')[0];
  return undefined;
}

/** Parses `smartctl --json` output of one device (any of -a, -x, -i, -A, -H). */
export function parseSmartctlJson(input: unknown): ParseResult<SmartReport> {
  const json = asObject(input);
  if (!json || !asObject(json.smartctl)) return unparsable('not smartctl JSON (no "smartctl" object)');
  const exitStatus = asCount(at(json, 'smartctl', 'exit_status'));
  const messages = (asArray(at(json, 'smartctl', 'messages')) ?? []).flatMap((m) => asText(at(m, 'string')) ?? []);
  const devicePath = asText(at(json, 'device', 'name'));
  // Exit bit 1 = the device could not be opened: nothing else in the document describes a drive.
  if (exitStatus !== undefined && (exitStatus & 0b10) !== 0 && !devicePath) {
    return unparsable(messages[0] ?? `smartctl could not open the device (exit ${exitStatus})`);
  }
  const deviceType = asText(at(json, 'device', 'type'));
  const infoName = asText(at(json, 'device', 'info_name'));
  const protocol = protocolOf(at(json, 'device', 'protocol'));
  const nvmeLog = asObject(json.nvme_smart_health_information_log);
  const attributes = attributesOf(json);
  const rotationRpm = asCount(json.rotation_rate);
  // SCSI JSON names the model scsi_model_name (7.x) or model_name (6.7); ATA/NVMe use model_name.
  const model = asText(json.model_name) ?? asText(json.scsi_model_name);
  const capacityBytes = asCount(at(json, 'user_capacity', 'bytes')) ?? asCount(json.nvme_total_capacity);

  return parsed(
    compact<SmartReport>({
      devicePath,
      deviceType,
      protocol,
      model,
      vendor: asText(json.scsi_vendor) ?? asText(json.vendor),
      serial: asText(json.serial_number),
      firmware: asText(json.firmware_version) ?? asText(json.scsi_revision) ?? asText(json.revision),
      capacityBytes,
      logicalSectorSize: asCount(json.logical_block_size),
      physicalSectorSize: asCount(json.physical_block_size),
      rotationRpm,
      mediaType: mediaTypeOf(protocol, rotationRpm),
      formFactor: asText(at(json, 'form_factor', 'name')),
      transport: transportOf(json, protocol),
      viaUsbBridge: looksLikeUsbBridge(deviceType, infoName, model),
      viaRaidController: looksLikeRaid(deviceType, infoName),
      healthPassed: asBool(at(json, 'smart_status', 'passed')),
      powerOnHours: asCount(at(json, 'power_on_time', 'hours')) ?? asCount(nvmeLog?.power_on_hours),
      temperatureC: asNumber(at(json, 'temperature', 'current')),
      percentageUsed:
        asCount(nvmeLog?.percentage_used) ??
        asCount(json.scsi_percentage_used_endurance_indicator) ??
        statisticPercentageUsed(json) ??
        wearFromAttributes(attributes),
      reallocatedSectors: attributeRaw(attributes, 5) ?? asCount(json.scsi_grown_defect_list),
      pendingSectors: attributeRaw(attributes, 197),
      mediaErrors: asCount(nvmeLog?.media_errors),
      ataSecurity: parseAtaSecuritySummary(asText(at(json, 'ata_security', 'string'))),
      trimSupported: asBool(at(json, 'trim', 'supported')),
      exitStatus,
      messages,
    }),
  );
}

/** Parses `smartctl --scan -j`. */
export function parseSmartctlScan(input: unknown): ParseResult<SmartScanDevice[]> {
  const devices = asArray(at(input, 'devices'));
  if (!devices) return unparsable('not smartctl --scan JSON (no "devices" array)');
  return parsed(
    devices.flatMap((d) => {
      const name = asText(at(d, 'name'));
      if (!name) return [];
      return [
        compact<SmartScanDevice>({
          name,
          type: asText(at(d, 'type')),
          protocol: protocolOf(at(d, 'protocol')),
          infoName: asText(at(d, 'info_name')),
        }),
      ];
    }),
  );
}

/** Text convenience: JSON.parse then {@link parseSmartctlJson}. */
export function parseSmartctlJsonText(text: string): ParseResult<SmartReport> {
  const json = parseJsonText(text);
  return json.ok ? parseSmartctlJson(json.value) : json;
}
