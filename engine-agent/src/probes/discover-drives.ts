import type { Runner } from '../adapters/runner.js';
import { ToolSpawnError } from '../adapters/runner.js';
import { parseHdparmDco, parseHdparmHpa, parseHdparmIdentify } from './hdparm.js';
import { flattenLsblk, parseLsblkJson, type LsblkDevice } from './lsblk.js';
import { parseNvmeIdCtrlJson } from './nvme-id.js';
import { parseJsonText, type ParseResult } from './parse-result.js';
import { parseHdparmSanitizeStatus, parseNvmeSanitizeLog } from './sanitize-status.js';
import type { DriveConnection } from './drive-connection-types.js';
import type { SmartReport } from './smart-report.js';
import { parseSmartctlJsonText } from './smartctl-json.js';
import { probeSelfEncryption } from './self-encryption.js';
import { isMmcCard, isMmcSubArea, readMmcCard, readMmcExtcsd } from './mmc-card.js';
import type { SysfsReader } from './sysfs-block.js';
import { buildCapabilities, type DriveCapabilities, type DriveFacts } from '../drives/capabilities.js';
import { planErase, type ErasePlan, type ErasePolicy, type NoErasePlan } from '../drives/plan-erase.js';

/** A drive found on this machine, with what it can do and the plan for erasing it. */
export interface DiscoveredDrive {
  readonly device: string;
  /** Internal drives go into the fingerprint's storage section; USB, removable, loop and ram devices do not. */
  readonly internal: boolean;
  readonly capabilities: DriveCapabilities;
  readonly plan: ErasePlan | NoErasePlan;
  readonly smart?: SmartReport;
  readonly firmware?: string;
  /** Issue 30 item 2: this boot's PSID revert of the drive in words (a cryptographic erase before its erase). */
  readonly psidRevert?: string;
  /** Through a USB bridge or behind a RAID controller (issue 30 items 3, 5): set by drive-connection.ts. */
  readonly connection?: DriveConnection;
  /** The boot medium or the data volume, in the words of its row: never a target (safety/own-media.ts, issue 30 item 7). */
  readonly ownMedium?: string;
}

const T = { timeoutMs: 60_000 };

/** Runs a probe; a missing tool or unusable output is just an absent fact. */
async function probe<T>(run: Runner, tool: string, args: string[], parse: (stdout: string) => ParseResult<T>): Promise<T | undefined> {
  try {
    const r = await run(tool, args, T);
    const p = parse(r.stdout);
    return p.ok ? p.value : undefined;
  } catch (error) {
    if (error instanceof ToolSpawnError) return undefined;
    throw error;
  }
}

/** Virtual and removable devices never count as the machine's storage. */
export function isInternal(d: LsblkDevice): boolean {
  if (d.type !== 'disk') return false;
  if (/^(loop|ram|zram|sr|fd|nbd)/.test(d.name)) return false;
  return d.transport !== 'usb' && d.removable !== true;
}

/**
 * An eMMC or SD card (issue 30 item 4): its identity from sysfs, and an eMMC's EXT_CSD. An SD card
 * is never sent `mmc extcsd read` (SEND_EXT_CSD is CMD8, which an SD card takes as SEND_IF_COND).
 * Without sysfs the card's kind is unknown and nothing is sent to it: it is planned as an SD card.
 */
async function probeMmc(run: Runner, device: string, lsblk: LsblkDevice | undefined, sys: SysfsReader | undefined): Promise<DriveFacts> {
  const mmcCard = sys ? await readMmcCard(sys, lsblk?.name ?? device) : undefined;
  const mmcExtCsd = mmcCard?.kind === 'emmc' ? await readMmcExtcsd(run, device) : undefined;
  return { device, ...(lsblk ? { lsblk } : {}), mmcCard: mmcCard ?? {}, ...(mmcExtCsd ? { mmcExtCsd } : {}) };
}

/** Probes one disk with every tool that applies to it (`sys`: sysfs, for an eMMC or SD card's identity). */
export async function probeDrive(run: Runner, device: string, lsblk?: LsblkDevice, sys?: SysfsReader): Promise<DriveFacts> {
  if (isMmcCard(lsblk?.name ?? device)) return probeMmc(run, device, lsblk, sys);
  const smart = await probe(run, 'smartctl', ['--json', '-x', device], parseSmartctlJsonText);
  const isNvme = lsblk?.transport === 'nvme' || /nvme/.test(device) || smart?.protocol === 'NVMe';
  const isAta = !isNvme && (lsblk?.transport === 'sata' || lsblk?.transport === 'ata' || smart?.protocol === 'ATA');
  const json = (s: string) => parseJsonText(s);
  const nvmeIdCtrl = isNvme ? await probe(run, 'nvme', ['id-ctrl', device, '-o', 'json'], (s) => { const j = json(s); return j.ok ? parseNvmeIdCtrlJson(j.value) : j; }) : undefined;
  const hdparm = isAta ? await probe(run, 'hdparm', ['-I', device], parseHdparmIdentify) : undefined;
  const hpa = isAta ? await probe(run, 'hdparm', ['-N', device], parseHdparmHpa) : undefined;
  // A DCO can hide sectors beyond the native max -N shows; only its identify data says so.
  const dco = isAta && hdparm?.dcoFeature !== false ? await probe(run, 'hdparm', ['--dco-identify', device], parseHdparmDco) : undefined;
  // A sanitize outlives power loss: one started before this boot may still run, or have failed.
  const sanitizeStatus = nvmeIdCtrl?.sanitize
    ? await probe(run, 'nvme', ['sanitize-log', device, '-o', 'json'], (s) => { const j = json(s); return j.ok ? parseNvmeSanitizeLog(j.value) : j; })
    : hdparm?.sanitize.supported
      ? await probe(run, 'hdparm', ['--sanitize-status', device], parseHdparmSanitizeStatus)
      : undefined;
  const selfEncryption = await probeSelfEncryption(run, device, isNvme ? 'nvme' : 'ata-scsi');
  return { device, ...(lsblk ? { lsblk } : {}), ...(smart ? { smart } : {}), ...(nvmeIdCtrl ? { nvmeIdCtrl } : {}), ...(hdparm ? { hdparm } : {}), ...(hpa ? { hpa } : {}), ...(dco ? { dco } : {}), ...(sanitizeStatus ? { sanitizeStatus } : {}), selfEncryption };
}

const lsblkTree = (run: Runner, args: string[]) => probe(run, 'lsblk', args, (s) => { const j = parseJsonText(s); return j.ok ? parseLsblkJson(j.value) : j; });

/** One disk lsblk listed: probed with every tool when internal (USB and removable ones by lsblk alone), and planned. */
async function discoverDisk(run: Runner, disk: LsblkDevice, policy: ErasePolicy, sys?: SysfsReader): Promise<DiscoveredDrive> {
  const device = disk.path ?? `/dev/${disk.name}`;
  // A card reader's slot may call its card removable; the card is still read for what it is.
  const facts = isInternal(disk) || isMmcCard(disk.name) ? await probeDrive(run, device, disk, sys) : { device, lsblk: disk };
  const capabilities = buildCapabilities(facts);
  const firmware = facts.smart?.firmware ?? facts.hdparm?.firmware ?? facts.nvmeIdCtrl?.firmware ?? disk.revision;
  return { device, internal: isInternal(disk), capabilities, plan: planErase(capabilities, policy), ...(facts.smart ? { smart: facts.smart } : {}), ...(firmware ? { firmware } : {}) };
}

/**
 * Lists the whole disks (lsblk), probes each, and plans its erase under `policy`. An eMMC's boot
 * partitions and RPMB area are areas of the card, not drives: the card (`mmcblk0`) is listed once.
 */
export async function discoverDrives(run: Runner, policy: ErasePolicy = {}, sys?: SysfsReader): Promise<DiscoveredDrive[]> {
  const disks = flattenLsblk((await lsblkTree(run, ['-J', '-b', '-O'])) ?? []).filter((d) => d.type === 'disk' && !isMmcSubArea(d.name));
  const found: DiscoveredDrive[] = [];
  for (const disk of disks) found.push(await discoverDisk(run, disk, policy, sys));
  return found;
}

/**
 * One drive, found and planned as `discoverDrives` would find and plan it, without listing or
 * probing any other (a station bay's drive, while the other bays erase): `lsblk` of that device
 * only, then its own smartctl/nvme/hdparm calls. A device lsblk lists but does not call a disk (a
 * loop device) is probed with every tool, as a device named by the operator. A device lsblk does
 * not list at all is refused: its node is gone (the drive was pulled, its name may soon be another
 * disk's) or it is no block device. The result carries `device` as given. Selection only: the
 * safety guard still runs before the erase.
 */
export async function discoverDrive(run: Runner, device: string, policy: ErasePolicy = {}, sys?: SysfsReader): Promise<DiscoveredDrive | NotListed> {
  const own = (await lsblkTree(run, ['-J', '-b', '-O', device]))?.[0];
  if (!own) return { listed: false, device, reason: `${device} is not listed by lsblk (gone, or not a block device): not erased` };
  // With sysfs, a card in a bay is known as an SD card or eMMC and planned with its EXT_CSD, as in the full listing.
  if (own.type === 'disk') return { ...(await discoverDisk(run, own, policy, sys)), device };
  const capabilities = buildCapabilities(await probeDrive(run, device, own));
  return { device, internal: false, capabilities, plan: planErase(capabilities, policy) };
}

/** What `discoverDrive` answers for a device lsblk does not list. */
export interface NotListed {
  readonly listed: false;
  readonly device: string;
  readonly reason: string;
}
