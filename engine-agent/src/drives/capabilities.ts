import type { HdparmDco, HdparmHpa, HdparmIdentify } from '../probes/hdparm.js';
import type { LsblkDevice } from '../probes/lsblk.js';
import type { MmcCard, MmcExtCsdProbe } from '../probes/mmc-card.js';
import type { NvmeIdCtrl } from '../probes/nvme-id.js';
import type { SanitizeStatus } from '../probes/sanitize-status.js';
import type { SmartReport } from '../probes/smart-report.js';
import type { SysBlockDevice } from '../probes/sysfs-block.js';
import type { SelfEncryption } from '../probes/tcg-discovery.js';
import { compact } from '../probes/unknown.js';

/** How the host reaches the drive. `usb` wins over what the drive itself speaks. */
export type DriveTransport = 'nvme' | 'sata' | 'sas' | 'usb' | 'scsi' | 'mmc' | 'unknown';

/** Support for the three sanitize actions of any command set. */
export interface SanitizeSupport {
  readonly crypto: boolean;
  readonly block: boolean;
  readonly overwrite: boolean;
}

/** ATA Security feature set, as far as erase planning needs it. */
export interface AtaSecurityCaps {
  readonly supported: boolean;
  readonly enabled: boolean;
  readonly locked: boolean;
  readonly frozen: boolean;
  readonly countExpired: boolean;
  readonly enhancedErase: boolean;
  readonly eraseMinutes?: number;
  readonly enhancedEraseMinutes?: number;
  /** Set only while a password is: "high" lets a master password unlock and erase, "maximum" only erase. */
  readonly level?: 'high' | 'maximum';
}

/** NVMe erase capabilities from Identify Controller. */
export interface NvmeCaps {
  /** Undefined when the controller did not report SANICAP. */
  readonly sanitize?: SanitizeSupport;
  readonly formatSupported: boolean;
  /** FNA bit 2: Format with SES=2 does a crypto erase. */
  readonly formatCryptoErase: boolean;
  /** FNA bits 0/1: format/secure erase always hits every namespace. */
  readonly formatAllNamespaces: boolean;
  readonly namespaceCount?: number;
}

/**
 * An eMMC or SD card (issue 30 item 4). An SD card has no EXT_CSD: it is erased by overwrite. An
 * eMMC's erase commands are the ones its EXT_CSD's SEC_FEATURE_SUPPORT sets.
 */
export interface MmcCaps {
  readonly kind?: 'emmc' | 'sd';
  /** `mmc extcsd read` was answered; undefined for an SD card (never asked), with `extCsdMissing` saying why otherwise. */
  readonly extCsd?: { readonly revision: string; readonly secFeatureSupport: number; readonly sanitize: boolean; readonly secureErase: boolean; readonly trim: boolean; readonly sectors?: number };
  /** Why an eMMC's EXT_CSD could not be read (no mmc-utils, the read failed). */
  readonly extCsdMissing?: string;
  readonly name?: string;
  readonly serial?: string;
  readonly manfid?: string;
  readonly date?: string;
}

/** Everything the erase planner needs to know about one drive. */
export interface DriveCapabilities {
  readonly device: string;
  readonly model?: string;
  readonly serial?: string;
  readonly transport: DriveTransport;
  /** Behind a USB bridge: firmware erase commands are refused by policy. */
  readonly viaUsbBridge: boolean;
  readonly viaRaidController: boolean;
  readonly rotational?: boolean;
  readonly sizeBytes?: number;
  readonly logicalSectorSize?: number;
  readonly physicalSectorSize?: number;
  /** The kernel passes discards (TRIM/UNMAP/deallocate) to the drive: lsblk DISC-MAX above 0. */
  readonly discard?: boolean;
  readonly ataSecurity?: AtaSecurityCaps;
  readonly ataSanitize?: SanitizeSupport;
  /** Self-encrypting per IDENTIFY ("Device encrypts all user data"). */
  readonly selfEncrypting?: boolean;
  /** TCG level 0 discovery (Opal, Pyrite, Enterprise…): family and lock state, or why it is unknown. */
  readonly selfEncryption?: SelfEncryption;
  readonly nvme?: NvmeCaps;
  /** Undefined = not probed (sg_opcodes); the planner then does not offer SCSI SANITIZE. */
  readonly scsiSanitize?: SanitizeSupport;
  /** Sectors hidden by a Host Protected Area, when one is set. */
  readonly hpaHiddenSectors?: number;
  /** Sectors hidden by a Device Configuration Overlay (DCO real max above the native max). */
  readonly dcoHiddenSectors?: number;
  /** A sanitize the drive reports as still running or as failed (it outlives power loss). */
  readonly lastSanitize?: UnfinishedSanitize;
  /** An eMMC or SD card (issue 30 item 4): what it is and, for an eMMC, what its EXT_CSD supports. */
  readonly mmc?: MmcCaps;
}

/**
 * A sanitize found running or failed when the drive was probed, usually one started before this
 * boot: it continues across power loss, and a failed one leaves the drive in failure mode.
 */
export interface UnfinishedSanitize {
  readonly commandSet: 'nvme' | 'ata';
  readonly state: 'in_progress' | 'failed';
  readonly percent?: number;
  /**
   * Failed only: the command set's spec lets the host leave failure mode without a new sanitize.
   * NVMe: the failed sanitize ran in unrestricted completion mode (AUSE=1), so Exit Failure Mode
   * (SANACT=1) is allowed. ATA: hdparm issues its sanitize with FAILURE MODE=0 and cannot send
   * the status command's CLEAR SANITIZE OPERATION FAILED, so never.
   */
  readonly exitAllowed: boolean;
}

/** Probe results about one drive; each is optional because each tool can fail or not apply. */
export interface DriveFacts {
  readonly device: string;
  readonly lsblk?: LsblkDevice;
  readonly sysfs?: SysBlockDevice;
  readonly smart?: SmartReport;
  readonly hdparm?: HdparmIdentify;
  readonly hpa?: HdparmHpa;
  readonly dco?: HdparmDco;
  readonly nvmeIdCtrl?: NvmeIdCtrl;
  readonly scsiSanitize?: SanitizeSupport;
  /** `nvme sanitize-log` or `hdparm --sanitize-status`, read when the drive supports sanitize. */
  readonly sanitizeStatus?: SanitizeStatus;
  /** `nvme sed discover`, `sedutil-cli --query`, or `sg_raw` (SECURITY PROTOCOL IN) without sedutil-cli. */
  readonly selfEncryption?: SelfEncryption;
  /** An eMMC or SD card's sysfs identity (issue 30 item 4). */
  readonly mmcCard?: MmcCard;
  /** An eMMC's `mmc extcsd read`, or why it is missing. */
  readonly mmcExtCsd?: MmcExtCsdProbe;
}

/** An eMMC or SD card's capabilities from its sysfs identity and EXT_CSD. */
function mmcCaps(f: DriveFacts): MmcCaps | undefined {
  if (!f.mmcCard && !f.mmcExtCsd) return undefined;
  const card = f.mmcCard;
  const ext = f.mmcExtCsd;
  return compact<MmcCaps>({
    kind: card?.kind,
    extCsd: ext?.ok ? compact({ revision: ext.value.revision, secFeatureSupport: ext.value.secFeatureSupport, sanitize: ext.value.sanitize, secureErase: ext.value.secureErase, trim: ext.value.trim, sectors: ext.value.sectors }) : undefined,
    extCsdMissing: ext && !ext.ok ? ext.reason : undefined,
    name: card?.name,
    serial: card?.serial,
    manfid: card?.manfid,
    date: card?.date,
  });
}

function unfinishedSanitize(f: DriveFacts, transport: DriveTransport): UnfinishedSanitize | undefined {
  const s = f.sanitizeStatus;
  if (!s || (s.state !== 'in_progress' && s.state !== 'failed')) return undefined;
  const commandSet = transport === 'nvme' ? 'nvme' : 'ata';
  return {
    commandSet,
    state: s.state,
    ...(s.percent !== undefined ? { percent: s.percent } : {}),
    exitAllowed: s.state === 'failed' && commandSet === 'nvme' && s.unrestrictedCompletion === true,
  };
}

function transportOf(f: DriveFacts, viaUsb: boolean): DriveTransport {
  if (viaUsb) return 'usb';
  if (f.mmcCard || f.mmcExtCsd || f.sysfs?.bus === 'mmc' || f.lsblk?.transport === 'mmc') return 'mmc';
  const tran = f.lsblk?.transport?.toLowerCase() ?? f.sysfs?.bus;
  if (tran === 'nvme' || f.nvmeIdCtrl || f.smart?.protocol === 'NVMe') return 'nvme';
  if (tran === 'sata' || tran === 'ata' || f.hdparm || f.smart?.protocol === 'ATA') return 'sata';
  if (tran === 'sas' || f.smart?.transport === 'SAS') return 'sas';
  if (tran === 'scsi' || tran === 'spi' || tran === 'fc' || tran === 'iscsi' || f.smart?.protocol === 'SCSI') return 'scsi';
  return 'unknown';
}

/** Combines probe results into capabilities. Pure: the probing happened before. */
export function buildCapabilities(f: DriveFacts): DriveCapabilities {
  const viaUsbBridge = f.lsblk?.transport === 'usb' || f.sysfs?.bus === 'usb' || f.smart?.viaUsbBridge === true;
  const transport = transportOf(f, viaUsbBridge);
  const sec = f.hdparm?.security;
  const smartSec = f.smart?.ataSecurity;
  const id = f.nvmeIdCtrl;
  const rotational =
    f.lsblk?.rotational ?? f.sysfs?.rotational ?? (f.smart?.mediaType ? f.smart.mediaType === 'hdd' : undefined);
  const hpaHidden = f.hpa?.hpaEnabled && f.hpa.hiddenSectors > 0 ? f.hpa.hiddenSectors : undefined;
  const native = f.hpa?.nativeSectors;
  const realMax = f.dco?.realMaxSectors;
  return compact<DriveCapabilities>({
    device: f.device,
    model: f.smart?.model ?? f.hdparm?.model ?? id?.model ?? f.lsblk?.model ?? f.mmcCard?.name,
    serial: f.smart?.serial ?? f.hdparm?.serial ?? id?.serial ?? f.lsblk?.serial ?? f.mmcCard?.serial,
    transport,
    viaUsbBridge,
    viaRaidController: f.smart?.viaRaidController ?? false,
    rotational,
    sizeBytes: f.lsblk?.sizeBytes ?? f.sysfs?.sizeBytes ?? f.smart?.capacityBytes,
    logicalSectorSize: f.lsblk?.logicalSectorSize ?? f.sysfs?.logicalBlockSize ?? f.smart?.logicalSectorSize,
    physicalSectorSize: f.lsblk?.physicalSectorSize ?? f.sysfs?.physicalBlockSize ?? f.smart?.physicalSectorSize,
    discard: f.lsblk?.discardMaxBytes !== undefined ? f.lsblk.discardMaxBytes > 0 : undefined,
    ataSecurity: sec
      ? {
          supported: sec.supported,
          enabled: sec.enabled,
          locked: sec.locked,
          frozen: sec.frozen,
          countExpired: sec.countExpired,
          enhancedErase: sec.enhancedEraseSupported,
          ...(sec.eraseMinutes !== undefined ? { eraseMinutes: sec.eraseMinutes } : {}),
          ...(sec.enhancedEraseMinutes !== undefined ? { enhancedEraseMinutes: sec.enhancedEraseMinutes } : {}),
          ...(sec.level ? { level: sec.level } : {}),
        }
      : smartSec
        ? // smartctl's one-line summary: the set is supported, enhanced erase unknown (false = not offered).
          { supported: true, enabled: smartSec.enabled, locked: smartSec.locked ?? false, frozen: smartSec.frozen, countExpired: false, enhancedErase: false }
        : undefined,
    ataSanitize: f.hdparm?.sanitize.supported
      ? { crypto: f.hdparm.sanitize.cryptoScramble, block: f.hdparm.sanitize.blockErase, overwrite: f.hdparm.sanitize.overwrite }
      : undefined,
    selfEncrypting: f.hdparm?.encryptsAllUserData,
    selfEncryption: f.selfEncryption,
    nvme: id
      ? compact<NvmeCaps>({
          sanitize: id.sanitize ? { crypto: id.sanitize.crypto, block: id.sanitize.block, overwrite: id.sanitize.overwrite } : undefined,
          formatSupported: id.formatSupported ?? false,
          formatCryptoErase: id.format?.cryptoEraseSupported ?? false,
          formatAllNamespaces: (id.format?.formatAllNamespaces ?? false) || (id.format?.eraseAllNamespaces ?? false),
          namespaceCount: id.namespaceCount,
        })
      : undefined,
    scsiSanitize: f.scsiSanitize,
    hpaHiddenSectors: hpaHidden,
    dcoHiddenSectors: native !== undefined && realMax !== undefined && realMax > native ? realMax - native : undefined,
    lastSanitize: unfinishedSanitize(f, transport),
    mmc: mmcCaps(f),
  });
}
