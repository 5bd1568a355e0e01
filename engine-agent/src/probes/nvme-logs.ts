import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { lines, parseGroupedInt } from './text.js';
import { asCount, asObject, asText, at, compact } from './unknown.js';

/** `nvme smart-log -o json`, normalised across nvme-cli versions. */
export interface NvmeSmartLog {
  readonly criticalWarning?: number;
  /** Composite temperature; nvme-cli prints Kelvin. */
  readonly temperatureC?: number;
  readonly availableSparePct?: number;
  readonly percentageUsed?: number;
  readonly powerOnHours?: number;
  readonly powerCycles?: number;
  readonly unsafeShutdowns?: number;
  readonly mediaErrors?: number;
  readonly errorLogEntries?: number;
  /** 512,000-byte units, as the spec counts them. */
  readonly dataUnitsWritten?: number;
  readonly dataUnitsRead?: number;
}

/** Parses `nvme smart-log -o json` (1.x `critical_warrning`, 2.3 plain number, 2.11 object). */
export function parseNvmeSmartLog(input: unknown): ParseResult<NvmeSmartLog> {
  const json = asObject(input);
  if (!json || json.power_on_hours === undefined) return unparsable('not nvme smart-log JSON (no power_on_hours)');
  const warning = json.critical_warning ?? json.critical_warrning;
  const kelvin = asCount(json.temperature);
  return parsed(
    compact<NvmeSmartLog>({
      criticalWarning: asCount(warning) ?? asCount(at(warning, 'value')),
      // Below 200 the value cannot be Kelvin (-73 C); some builds already print Celsius.
      temperatureC: kelvin === undefined ? undefined : kelvin >= 200 ? kelvin - 273 : kelvin,
      availableSparePct: asCount(json.avail_spare),
      percentageUsed: asCount(json.percent_used) ?? asCount(json.percentage_used),
      powerOnHours: asCount(json.power_on_hours),
      powerCycles: asCount(json.power_cycles),
      unsafeShutdowns: asCount(json.unsafe_shutdowns),
      mediaErrors: asCount(json.media_errors),
      errorLogEntries: asCount(json.num_err_log_entries),
      dataUnitsWritten: asCount(json.data_units_written),
      dataUnitsRead: asCount(json.data_units_read),
    }),
  );
}

/** A 128-bit counter as OCP prints it ({hi, lo}); each half exact only up to 2^53 since JSON numbers are doubles. */
export function uint128(value: unknown): bigint | undefined {
  const hi = asCount(at(value, 'hi'));
  const lo = asCount(at(value, 'lo'));
  if (hi === undefined || lo === undefined) {
    const plain = asCount(value);
    return plain === undefined ? undefined : BigInt(plain);
  }
  return (BigInt(hi) << 64n) + BigInt(lo);
}

/** OCP Datacenter SMART cloud log facts (`nvme ocp smart-add-log -o json`). */
export interface NvmeOcpSmartLog {
  readonly physicalMediaUnitsWritten?: bigint;
  readonly physicalMediaUnitsRead?: bigint;
  readonly badUserNandBlocks?: number;
  readonly uncorrectableReadErrors?: number;
  readonly systemDataPercentUsed?: number;
  /** Every field as printed, for the fingerprint. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Parses the OCP SMART extended log JSON. */
export function parseNvmeOcpSmartLog(input: unknown): ParseResult<NvmeOcpSmartLog> {
  const json = asObject(input);
  if (!json || json['Physical media units written'] === undefined) return unparsable('not an OCP smart-add-log JSON');
  return parsed(
    compact<NvmeOcpSmartLog>({
      physicalMediaUnitsWritten: uint128(json['Physical media units written']),
      physicalMediaUnitsRead: uint128(json['Physical media units read']),
      badUserNandBlocks: asCount(json['Bad user nand blocks - Raw']),
      uncorrectableReadErrors: asCount(json['Uncorrectable read error count']),
      systemDataPercentUsed: asCount(json['System data percent used']),
      fields: json,
    }),
  );
}

/** One row of a vendor plugin log (`nvme intel smart-log-add`, `nvme samsung vs-smart-add-log`). */
export interface VendorLogEntry {
  readonly key: string;
  readonly normalizedPct?: number;
  readonly raw: string;
  /** The raw value when it is a plain integer. */
  readonly value?: number;
}

/**
 * Parses vendor plugin text logs. Layouts differ per vendor, so rows are kept as key/raw pairs
 * for the fingerprint; the agent decides nothing from them.
 */
export function parseNvmeVendorLog(text: string): ParseResult<VendorLogEntry[]> {
  const entries: VendorLogEntry[] = [];
  for (const line of lines(text)) {
    // Samsung: "[015:000] PhysicallyWrittenBytes   : 5357954930143232"
    const samsung = /^\[\d+:\d+\]\s+(.+?)\s*:\s*(.+?)\s*$/.exec(line);
    // Intel: "wear_leveling                   :  70%       min: 3523, max: 3603, avg: 3562"
    const intel = /^([a-z_0-9]+)\s*:\s*(\d+)%\s+(.+?)\s*$/.exec(line);
    if (samsung?.[1] && samsung[2]) {
      entries.push(compact<VendorLogEntry>({ key: samsung[1], raw: samsung[2], value: parseGroupedInt(samsung[2]) }));
    } else if (intel?.[1] && intel[2] && intel[3]) {
      entries.push(
        compact<VendorLogEntry>({ key: intel[1], normalizedPct: Number(intel[2]), raw: intel[3], value: parseGroupedInt(intel[3]) }),
      );
    }
  }
  return entries.length > 0 ? parsed(entries) : unparsable('no rows in vendor log');
}

/** Reads the device name a vendor log names in its header, e.g. "nvme0". */
export const vendorLogDevice = (text: string): string | undefined => asText(/device:\s*(\S+)/.exec(text)?.[1]);
