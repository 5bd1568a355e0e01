import { meaningfulDmi, type Fingerprint, type FingerprintDrive } from '@erasure/shared';

/** The asset columns the cloud refreshes from the fingerprint on every boot (spec 2, internal asset). */
export interface PromotedColumns {
  manufacturer: string | null;
  model: string | null;
  serial_number: string | null;
  board_model: string | null;
  board_serial: string | null;
  asset_tag: string | null;
  bios_version: string | null;
  tpm_version: string | null;
  firmware_mode: string | null;
  secure_boot: boolean | null;
  cpu_model: string | null;
  cpu_cores: number | null;
  cpu_threads: number | null;
  memory_total_bytes: number | null;
  gpu: string | null;
  storage_summary: string | null;
  storage_serials: string | null;
  battery_health_pct: number | null;
}

const text = (value: unknown): string | null => meaningfulDmi(value) ?? null;
const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;

/** Decimal size as a person reads it on a drive label: 512 GB, 2 TB. */
export function formatDecimalBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const rounded = value >= 100 || unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${units[unit]}`;
}

function describeDrive(drive: FingerprintDrive): string {
  const parts = [
    count(drive.size_bytes) !== null ? formatDecimalBytes(drive.size_bytes!) : null,
    text(drive.transport),
    text(drive.media_type),
    text(drive.model),
  ].filter((p): p is string => p !== null);
  return parts.join(' ');
}

/** Extracts the promoted columns; hardware reporting is best effort, so every column may be null. */
export function promoteColumns(fingerprint: Fingerprint): PromotedColumns {
  const { system, baseboard, bios, firmware, tpm, cpu, memory } = fingerprint;
  const storage = fingerprint.storage ?? [];
  const drives = storage.map(describeDrive).filter((d) => d !== '');
  const serials = storage.map((d) => text(d.serial)).filter((s): s is string => s !== null);
  const gpus = (fingerprint.gpus ?? []).map((g) => text(g.model)).filter((g): g is string => g !== null);
  const batteryHealth = (fingerprint.batteries ?? [])
    .map((b) => b.health_pct)
    .filter((h): h is number => typeof h === 'number' && Number.isFinite(h));
  return {
    manufacturer: text(system?.manufacturer) ?? text(system?.vendor),
    model: text(system?.product) ?? text(system?.model),
    serial_number: text(system?.serial),
    board_model: text(baseboard?.product),
    board_serial: text(baseboard?.serial),
    asset_tag: text(system?.asset_tag),
    bios_version: text(bios?.version),
    tpm_version: text(tpm?.version),
    firmware_mode: text(firmware?.mode),
    secure_boot: typeof firmware?.secure_boot === 'boolean' ? firmware.secure_boot : null,
    cpu_model: text(cpu?.model),
    cpu_cores: count(cpu?.cores),
    cpu_threads: count(cpu?.threads),
    memory_total_bytes: count(memory?.total_bytes),
    gpu: gpus.length > 0 ? gpus.join('; ') : null,
    storage_summary: drives.length > 0 ? drives.join(', ') : null,
    storage_serials: serials.length > 0 ? serials.join(', ') : null,
    battery_health_pct: batteryHealth.length > 0 ? Math.round(Math.min(...batteryHealth)) : null,
  };
}
