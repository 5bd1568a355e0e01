/** Display helpers shared by the pages. */

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-22 10:12` in the viewer's time zone; a dash when absent or unreadable. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `45s`, `12m 30s`, `1h 05m`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${pad(seconds % 60)}s`;
  return `${Math.floor(seconds / 3600)}h ${pad(Math.floor((seconds % 3600) / 60))}m`;
}

/** Section and test keys whose plain-words name is not just their words capitalised. */
const READABLE: Record<string, string> = {
  usb: 'USB devices',
  usb_ports: 'USB ports',
  wifi_adapter: 'Wi-Fi adapter',
  wifi_adapters: 'Wi-Fi adapters',
  gpus: 'Graphics',
  audio_devices: 'Audio devices',
  power_supplies: 'Power supplies',
  thermals: 'Temperatures',
  tpm: 'TPM',
  bios: 'BIOS',
  cpu: 'CPU',
};

/** A fingerprint section or hardware test key as a heading: `wifi_adapter` reads "Wi-Fi adapter", `usb_ports` "USB ports". */
export function readableName(key: string): string {
  if (READABLE[key]) return READABLE[key];
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A drive's capacity from the wire's whole gigabytes, as drive labels print it: 512 GB, 2 TB, and "< 1 GB" for the 0 a small drive arrives as. */
export function formatCapacityGb(gb: number | null | undefined): string {
  if (gb === null || gb === undefined) return '—';
  if (gb < 1) return '< 1 GB';
  if (gb >= 1000) return `${Math.round(gb / 100) / 10} TB`;
  return `${gb} GB`;
}

/** Decimal units, as drive labels use: 512 GB, 2 TB, 16 GB of memory reads 17.2 GB. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** Memory in binary units, as firmware and operating systems report it: 16 GiB. */
export function formatMemory(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const gib = bytes / 1024 ** 3;
  return gib >= 1 ? `${Math.round(gib * 10) / 10} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

export function titleize(value: string): string {
  return value
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

export const dash = (value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);
