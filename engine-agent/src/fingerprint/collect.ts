import type { Fingerprint } from '@erasure/shared';
import type { Runner } from '../adapters/runner.js';
import type { SystemView } from '../adapters/system-view.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { parseDmidecode, type DmiInfo } from '../probes/dmidecode.js';
import { parseEdid } from '../probes/edid.js';
import { storageEntry } from './storage.js';

/** The slice of `systeminformation` the fingerprint uses (injected, so tests pass recorded answers). */
export interface SystemInfoPort {
  cpu(): Promise<{ manufacturer: string; brand: string; physicalCores: number; cores: number; speed?: number }>;
  mem(): Promise<{ total: number }>;
  graphics(): Promise<{ controllers: Array<{ vendor?: string; model?: string; vram?: number | null }> }>;
  battery(): Promise<{ hasBattery: boolean; maxCapacity?: number; designedCapacity?: number; manufacturer?: string; model?: string; serial?: string; cycleCount?: number }>;
  networkInterfaces(): Promise<unknown>;
  audio(): Promise<Array<{ name?: string; manufacturer?: string; type?: string }>>;
  usb(): Promise<Array<{ name?: string | null; vendor?: string | null; manufacturer?: string | null; type?: string | null }>>;
  bluetoothDevices(): Promise<Array<{ name?: string; manufacturer?: string; type?: string }>>;
  cpuTemperature(): Promise<{ main: number | null; max: number | null; cores: number[] }>;
}

/** Ports of the collector. */
export interface FingerprintDeps {
  readonly run: Runner;
  readonly sys: SystemView;
  readonly si: SystemInfoPort;
  /** Drives discovered for this boot; only internal ones are listed. */
  readonly drives: () => Promise<readonly DiscoveredDrive[]>;
}

type Section = Record<string, unknown>;
// A section left empty once placeholders are gone says nothing: it is dropped like a missing one.
const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
const clean = <T extends Section>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '' && !isEmptyObject(v))) as T;
const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

/** Runs one section's collector; a failing section is left out (every section is optional, spec 2). */
async function section<T>(collect: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await collect();
  } catch {
    return undefined;
  }
}

async function dmi(run: Runner): Promise<DmiInfo | undefined> {
  const r = await run('dmidecode', [], { timeoutMs: 30_000 });
  const p = parseDmidecode(r.stdout);
  return p.ok ? p.value : undefined;
}

/** UEFI or legacy BIOS for this boot, and the Secure Boot state from its EFI variable. */
async function firmwareOf(sys: SystemView): Promise<Section> {
  const uefi = (await sys.listDir('/sys/firmware/efi')).length > 0;
  const vars = uefi ? await sys.listDir('/sys/firmware/efi/efivars') : [];
  const sbName = vars.find((v) => v.startsWith('SecureBoot-'));
  // efivarfs content: 4 attribute bytes, then the value byte (1 = enabled); read as latin1 text here.
  const sb = sbName ? await sys.readText(`/sys/firmware/efi/efivars/${sbName}`) : undefined;
  return clean({ mode: uefi ? 'UEFI' : 'BIOS', secure_boot: sb === undefined ? undefined : sb.charCodeAt(sb.length - 1) === 1 });
}

async function tpmOf(sys: SystemView): Promise<Section | undefined> {
  const major = (await sys.readText('/sys/class/tpm/tpm0/tpm_version_major'))?.trim();
  if (major) return { version: major === '2' ? '2.0' : major === '1' ? '1.2' : major };
  return (await sys.listDir('/sys/class/tpm')).length > 0 ? { version: 'unknown' } : undefined;
}

async function displaysOf(sys: SystemView): Promise<Section[] | undefined> {
  const connectors = (await sys.listDir('/sys/class/drm')).filter((c) => /^card\d+-/.test(c));
  const out: Section[] = [];
  for (const connector of connectors) {
    const raw = await sys.readText(`/sys/class/drm/${connector}/edid`);
    if (!raw) continue;
    const parsed = parseEdid(Buffer.from(raw, 'latin1'));
    if (!parsed.ok) continue;
    const e = parsed.value;
    out.push(clean({ connector: connector.replace(/^card\d+-/, ''), manufacturer: e.manufacturerId, product_code: e.productCode, name: e.name, serial: e.serialText ?? (e.serialNumber !== undefined ? String(e.serialNumber) : undefined), year: e.year, model_text: e.texts[0] }));
  }
  return nonEmpty(out);
}

async function fansOf(sys: SystemView): Promise<Section[] | undefined> {
  const out: Section[] = [];
  for (const hw of await sys.listDir('/sys/class/hwmon')) {
    for (const f of (await sys.listDir(`/sys/class/hwmon/${hw}`)).filter((n) => /^fan\d+_input$/.test(n))) {
      const rpm = Number((await sys.readText(`/sys/class/hwmon/${hw}/${f}`))?.trim());
      if (Number.isFinite(rpm)) out.push({ sensor: `${hw}/${f.replace('_input', '')}`, rpm });
    }
  }
  return nonEmpty(out);
}

/**
 * Assembles the fingerprint document (spec 2 "Fingerprint sections") from dmidecode, sysfs,
 * systeminformation and the discovered drives. The field names the cloud promotes to asset
 * columns are those of shared `Fingerprint`; everything else rides along as open-ended detail.
 */
export async function collectFingerprint(deps: FingerprintDeps): Promise<Fingerprint> {
  const { si, sys } = deps;
  const d = await section(() => dmi(deps.run));
  const [firmware, tpm, cpu, memTotal, gpus, battery, net, audio, usb, bluetooth, temps, displays, fans, drives] = await Promise.all([
    section(() => firmwareOf(sys)),
    section(() => tpmOf(sys)),
    section(() => si.cpu()),
    section(async () => (await si.mem()).total),
    section(async () => (await si.graphics()).controllers),
    section(() => si.battery()),
    section(() => si.networkInterfaces()),
    section(() => si.audio()),
    section(() => si.usb()),
    section(() => si.bluetoothDevices()),
    section(() => si.cpuTemperature()),
    section(() => displaysOf(sys)),
    section(() => fansOf(sys)),
    section(() => deps.drives()),
  ]);
  const nics = (Array.isArray(net) ? net : []) as Array<{ iface?: string; mac?: string; type?: string; speed?: number | null; virtual?: boolean; internal?: boolean }>;
  const physical = nics.filter((n) => !n.virtual && !n.internal);
  const fp: Record<string, unknown> = {
    system: d?.system ? clean({ ...d.system, asset_tag: d.chassis?.assetTag }) : undefined,
    baseboard: d?.baseboard ? clean({ manufacturer: d.baseboard.manufacturer, product: d.baseboard.product, serial: d.baseboard.serial, version: d.baseboard.version }) : undefined,
    bios: d?.bios ? clean({ vendor: d.bios.vendor, version: d.bios.version, date: d.bios.releaseDate }) : undefined,
    firmware,
    tpm,
    cpu: cpu ? clean({ model: `${cpu.manufacturer} ${cpu.brand}`.trim(), cores: cpu.physicalCores, threads: cpu.cores, speed_ghz: cpu.speed }) : undefined,
    // DMI's populated slots are the installed RAM; the kernel's total excludes firmware reservations.
    memory: d?.memoryTotalBytes ?? memTotal ? clean({ total_bytes: d?.memoryTotalBytes ?? memTotal, slots: d?.memoryDevices.filter((m) => m.sizeBytes).length }) : undefined,
    storage: drives?.filter((x) => x.internal).map(storageEntry),
    batteries: battery?.hasBattery
      ? [clean({ health_pct: battery.maxCapacity && battery.designedCapacity ? Math.round((battery.maxCapacity / battery.designedCapacity) * 100) : undefined, manufacturer: battery.manufacturer, model: battery.model, serial: battery.serial, cycle_count: battery.cycleCount })]
      : undefined,
    displays,
    gpus: gpus ? nonEmpty(gpus.map((g) => clean({ model: [g.vendor, g.model].filter(Boolean).join(' '), vram_mb: g.vram ?? undefined }))) : undefined,
    network: nonEmpty(physical.filter((n) => n.type !== 'wireless').map((n) => clean({ name: n.iface, mac: n.mac, speed_mbps: n.speed ?? undefined }))),
    wifi_adapters: nonEmpty(physical.filter((n) => n.type === 'wireless').map((n) => clean({ name: n.iface, mac: n.mac }))),
    bluetooth: bluetooth ? nonEmpty(bluetooth.map((b) => clean({ name: b.name, manufacturer: b.manufacturer, type: b.type }))) : undefined,
    audio_devices: audio ? nonEmpty(audio.map((a) => clean({ name: a.name, manufacturer: a.manufacturer, type: a.type }))) : undefined,
    usb: usb ? nonEmpty(usb.map((u) => clean({ name: u.name ?? undefined, vendor: u.vendor ?? u.manufacturer ?? undefined, type: u.type ?? undefined }))) : undefined,
    thermals: temps && temps.main !== null ? clean({ cpu_c: temps.main, cpu_max_c: temps.max ?? undefined }) : undefined,
    fans,
    power_supplies: d ? nonEmpty(d.powerSupplies.map((p) => clean({ ...p }))) : undefined,
  };
  return clean(fp) as Fingerprint;
}
