import type { FingerprintDrive } from '@erasure/shared';
import type { DiscoveredDrive } from '../probes/discover-drives.js';

/** The fingerprint's `storage` entry of one internal drive, SMART health included. */
export function storageEntry(d: DiscoveredDrive): FingerprintDrive {
  const c = d.capabilities;
  const s = d.smart;
  const smart = s
    ? Object.fromEntries(
        Object.entries({
          power_on_hours: s.powerOnHours,
          percentage_used: s.percentageUsed,
          reallocated_sectors: s.reallocatedSectors,
          pending_sectors: s.pendingSectors,
          media_errors: s.mediaErrors,
          temperature_c: s.temperatureC,
          health_passed: s.healthPassed,
        }).filter(([, v]) => v !== undefined),
      )
    : undefined;
  const entry: Record<string, unknown> = {
    device: d.device,
    model: c.model,
    serial: c.serial,
    size_bytes: c.sizeBytes,
    // Flash vs spinning: what the wipes grid shows (spec 4.5 "Media Type").
    media_type: c.rotational === undefined ? undefined : c.rotational ? 'HDD' : 'SSD',
    transport: c.transport,
    firmware: d.firmware,
    logical_sector_size: c.logicalSectorSize,
    smart,
    // A sanitize still running or failed (often from before this boot) goes to the cloud with the asset report.
    sanitize: c.lastSanitize ? { state: c.lastSanitize.state, ...(c.lastSanitize.percent !== undefined ? { percent: c.lastSanitize.percent } : {}) } : undefined,
  };
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as FingerprintDrive;
}

/** Human summary used in logs and the kiosk: "Samsung 850 EVO 2TB (SSD, sata)". */
export const describeDrive = (d: DiscoveredDrive): string =>
  `${d.capabilities.model ?? d.device} (${d.capabilities.rotational === false ? 'SSD' : d.capabilities.rotational ? 'HDD' : '?'}, ${d.capabilities.transport})`;
