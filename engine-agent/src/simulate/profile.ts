import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fingerprint } from '@erasure/shared';
import { buildCapabilities } from '../drives/capabilities.js';
import type { DiscoveredDrive } from '../probes/discover-drives.js';
import { planErase, type ErasePolicy } from '../drives/plan-erase.js';
import { storageEntry } from '../fingerprint/storage.js';
import { seatedDrivesNow } from './backplane.js';

const MiB = 1024 * 1024;

/** The simulated drives: real files the overwrite path writes and verifies (no firmware commands exist for them). */
const SIM_DRIVES = [
  { file: 'sim-ssd-0.img', model: 'SIMULATED SSD 64M', serial: 'SIM0000000001', sizeBytes: 64 * MiB, rotational: false },
  { file: 'sim-hdd-1.img', model: 'SIMULATED HDD 32M', serial: 'SIM0000000002', sizeBytes: 32 * MiB, rotational: true },
] as const;

/** Where the simulated drive files live. */
export const simulatedDir = (dataDir: string) => join(dataDir, 'simulated');

/**
 * The simulated machine's drives, creating their files (filled with a recognisable pattern, so
 * an erase visibly changes them) on first use.
 */
export function simulatedDrives(dataDir: string, policy: ErasePolicy = {}): DiscoveredDrive[] {
  const dir = simulatedDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const own = SIM_DRIVES.map((d): DiscoveredDrive => {
    const device = join(dir, d.file);
    if (!existsSync(device)) writeFileSync(device, Buffer.alloc(d.sizeBytes, 'CUSTOMER DATA '));
    const capabilities = buildCapabilities({ device, sysfs: { name: d.file, sizeBytes: d.sizeBytes, rotational: d.rotational, logicalBlockSize: 512, physicalBlockSize: 4096, model: d.model, serial: d.serial, partitions: [] } });
    // No firmware path exists for a file: only overwrite can run, whatever the policy forces.
    return { device, internal: true, capabilities: { ...capabilities, model: d.model, serial: d.serial, transport: 'sata' }, plan: planErase({ ...capabilities, transport: 'unknown' }, policy), firmware: 'SIM1' };
  });
  // The drives seated in the simulated backplane's bays: hot-swap drives, never the chassis's own.
  const bays = seatedDrivesNow(dataDir).map((d): DiscoveredDrive => {
    const capabilities = buildCapabilities({ device: d.device, sysfs: { name: `simbay${d.bay}`, sizeBytes: d.sizeBytes, rotational: false, logicalBlockSize: 512, physicalBlockSize: 4096, model: d.model, serial: d.serial, partitions: [] } });
    return { device: d.device, internal: false, capabilities: { ...capabilities, model: d.model, serial: d.serial, transport: 'sata' }, plan: planErase({ ...capabilities, transport: 'unknown' }, policy), firmware: 'SIM1' };
  });
  return [...own, ...bays];
}

/**
 * The simulated station's chassis (`serve --station --simulate`): a machine of its own, not the
 * simulated laptop, so a station and a kiosk simulated side by side on one floor (`npm start`'s
 * machine beside `npm start -- --station`) are two machines to the cloud, as on a real floor:
 * the floor view keeps one row per machine, and the chassis map is keyed by its DMI identity.
 */
export const SIMULATED_STATION_SYSTEM = { manufacturer: 'Erasure Labs', product: 'Simulated Station 4-bay', serial: 'SIM-STATION-0001', uuid: '7a0c3e51-2d4b-4f6a-8b19-3c5d7e9f1a2b' } as const;

/** The simulated machine's fingerprint as the simulated station's chassis reports it. */
export function asSimulatedStation(fp: Fingerprint): Fingerprint {
  return { ...fp, system: { ...fp.system, ...SIMULATED_STATION_SYSTEM } };
}

/** The simulated machine's fingerprint: a fixed laptop identity plus the simulated drives. */
export function simulatedFingerprint(drives: readonly DiscoveredDrive[]): Fingerprint {
  // Sections are open-ended (extra fields ride along), which TypeBox's static type cannot express.
  const document: Record<string, unknown> = {
    system: { manufacturer: 'Erasure Labs', product: 'Simulated Laptop 14', serial: 'SIM-LAPTOP-0001', uuid: '5e1f0c2a-7b3d-4c8e-9a61-0d2f3b4c5d6e' },
    baseboard: { manufacturer: 'Erasure Labs', product: 'SIM-BOARD', serial: 'SIM-BOARD-0001' },
    bios: { vendor: 'Erasure Labs', version: '1.0.0-sim', date: '01/01/2026' },
    firmware: { mode: 'UEFI', secure_boot: true },
    tpm: { version: '2.0' },
    cpu: { model: 'Simulated CPU 8-Core', cores: 8, threads: 16 },
    memory: { total_bytes: 16 * 1024 ** 3 },
    gpus: [{ model: 'Simulated Graphics' }],
    storage: drives.filter((d) => d.internal).map(storageEntry),
    batteries: [{ health_pct: 91, manufacturer: 'SIM', model: 'SIM-BAT-52Wh', cycle_count: 212 }],
    displays: [{ connector: 'eDP-1', manufacturer: 'BOE', product_code: 2955, name: 'Simulated Panel', serial: 'SIMPANEL01' }],
    network: [{ name: 'eth0', mac: '02:00:00:00:00:01', speed_mbps: 1000 }],
    wifi_adapters: [{ name: 'wlan0', mac: '02:00:00:00:00:02' }],
  };
  return document as Fingerprint;
}
