/** The drive facts the agent takes from smartctl, whichever output form they came from. */

/** Command set smartctl talked to the drive with. */
export type DriveProtocol = 'ATA' | 'NVMe' | 'SCSI';

/** ATA security state as smartctl summarises it (`ATA Security is: Disabled, frozen [SEC2]`). */
export interface SmartAtaSecurity {
  readonly enabled: boolean;
  readonly frozen: boolean;
  readonly locked?: boolean;
}

/** Typed smartctl report. Every fact is optional: partial runs (-jA, -jH, --info) are normal. */
export interface SmartReport {
  readonly devicePath?: string;
  /** smartctl's device type: `sat`, `nvme`, `scsi`, `usbjmicron`, `sat+megaraid,0`, ... */
  readonly deviceType?: string;
  readonly protocol?: DriveProtocol;
  readonly model?: string;
  readonly vendor?: string;
  readonly serial?: string;
  readonly firmware?: string;
  readonly capacityBytes?: number;
  readonly logicalSectorSize?: number;
  readonly physicalSectorSize?: number;
  /** 0 means solid state. */
  readonly rotationRpm?: number;
  readonly mediaType?: 'ssd' | 'hdd';
  readonly formFactor?: string;
  /** Link as reported: `SATA 3.2`, `SAS`, `NVMe`. */
  readonly transport?: string;
  /** Reached through a USB bridge: identity may be the bridge's and firmware erase is unsafe. */
  readonly viaUsbBridge: boolean;
  /** Reached through a RAID HBA (megaraid, cciss, areca, ...): firmware commands go to the controller. */
  readonly viaRaidController: boolean;
  readonly healthPassed?: boolean;
  readonly powerOnHours?: number;
  readonly temperatureC?: number;
  /** Endurance used, 0-100+ (NVMe percentage_used, SCSI endurance indicator, ATA statistics or wear attributes). */
  readonly percentageUsed?: number;
  readonly reallocatedSectors?: number;
  readonly pendingSectors?: number;
  readonly mediaErrors?: number;
  readonly ataSecurity?: SmartAtaSecurity;
  readonly trimSupported?: boolean;
  readonly exitStatus?: number;
  readonly messages: readonly string[];
}

/** One ATA SMART attribute: normalised value and the leading integer of the raw value. */
export interface AtaAttribute {
  readonly id: number;
  readonly name: string;
  readonly value: number;
  readonly raw?: number;
}

/**
 * Attributes whose NORMALISED value counts down remaining life from 100 (vendor drivedb names).
 * The raw values are vendor units (erase counts, 65406 on WD), so only the normalised value is comparable.
 */
const LIFE_REMAINING_ATTRIBUTES = new Set([
  'Wear_Leveling_Count',
  'Media_Wearout_Indicator',
  'Percent_Lifetime_Remain',
  'Percent_Life_Remaining',
  'SSD_Life_Left',
  'Remaining_Lifetime_Perc',
]);

/** Percentage used from the wear attributes, or undefined when none is known. */
export function wearFromAttributes(attributes: readonly AtaAttribute[]): number | undefined {
  const wear = attributes.find((a) => LIFE_REMAINING_ATTRIBUTES.has(a.name) && a.value <= 100);
  return wear ? 100 - wear.value : undefined;
}

/** Raw value of an attribute by id. */
export const attributeRaw = (attributes: readonly AtaAttribute[], id: number): number | undefined =>
  attributes.find((a) => a.id === id)?.raw;

/** smartctl device types that mean a USB-to-SATA/NVMe bridge. */
const USB_DEVICE_TYPE = /^(usb|snt)/i;
/** Bridge chips that answer IDENTIFY with their own model string (PROVENANCE: ASMT109x claims 7200 rpm). */
const BRIDGE_MODEL = /^(ASMT1\d\d|JMS5\d\d|RTL92\d\d|USB3\.0|External USB)/i;
const RAID_DEVICE_TYPE = /(megaraid|cciss|areca|3ware|aacraid|hpt)/i;

/** Whether the device type, smartctl's info name or the reported model show a USB bridge. */
export function looksLikeUsbBridge(deviceType?: string, infoName?: string, model?: string): boolean {
  return (
    (deviceType !== undefined && USB_DEVICE_TYPE.test(deviceType)) ||
    (infoName !== undefined && /\[USB/i.test(infoName)) ||
    (model !== undefined && BRIDGE_MODEL.test(model))
  );
}

/** Whether the device type names a RAID controller pass-through. */
export const looksLikeRaid = (deviceType?: string, infoName?: string): boolean =>
  (deviceType !== undefined && RAID_DEVICE_TYPE.test(deviceType)) ||
  (infoName !== undefined && RAID_DEVICE_TYPE.test(infoName));

/** Media type from protocol and rotation: NVMe and 0 rpm are solid state. */
export function mediaTypeOf(protocol?: DriveProtocol, rotationRpm?: number): 'ssd' | 'hdd' | undefined {
  if (protocol === 'NVMe') return 'ssd';
  if (rotationRpm === undefined) return undefined;
  return rotationRpm === 0 ? 'ssd' : 'hdd';
}

/** Reads `Disabled, NOT FROZEN [SEC1]` / `Enabled, frozen [SEC6]` / `Enabled, locked [SEC4]`. */
export function parseAtaSecuritySummary(text: string | undefined): SmartAtaSecurity | undefined {
  if (!text) return undefined;
  const t = text.toLowerCase();
  if (!/enabled|disabled/.test(t)) return undefined;
  return {
    enabled: t.startsWith('enabled'),
    frozen: /\bfrozen\b/.test(t) && !/not frozen/.test(t),
    ...(/\blocked\b/.test(t) ? { locked: !/not locked|unlocked/.test(t) } : {}),
  };
}
