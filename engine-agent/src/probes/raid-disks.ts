import type { Runner } from '../adapters/runner.js';
import { ToolSpawnError } from '../adapters/runner.js';
import { parseJsonText } from './parse-result.js';
import type { RaidHost } from './raid-host.js';
import { looksLikeRaid, type SmartReport } from './smart-report.js';
import { parseSmartctlJsonText, parseSmartctlScan, type SmartScanDevice } from './smartctl-json.js';

/** A physical disk smartctl reached behind a RAID controller (`-d megaraid,N` / `-d cciss,N`). */
export interface ControllerDisk {
  /** The node smartctl opened: `/dev/bus/6` (megaraid), `/dev/sg2` (cciss). */
  readonly through: string;
  /** smartctl's `-d` argument: `megaraid,14`, `cciss,0`. */
  readonly deviceType: string;
  readonly model?: string;
  readonly serial?: string;
  readonly capacityBytes?: number;
  readonly smart?: SmartReport;
}

const T = { timeoutMs: 60_000 };

async function stdoutOf(run: Runner, args: string[]): Promise<string | undefined> {
  try {
    // smartctl's exit status is a bit mask (failing drive, logged errors): the JSON still holds.
    return (await run('smartctl', args, T)).stdout;
  } catch (error) {
    if (error instanceof ToolSpawnError) return undefined;
    throw error;
  }
}

/** The RAID pass-through entries of `smartctl --scan-open --json` (`megaraid,N`, `cciss,N`, `aacraid,H,L,ID`, ...). */
export function raidScanEntries(scanText: string): SmartScanDevice[] {
  const json = parseJsonText(scanText);
  const scan = json.ok ? parseSmartctlScan(json.value) : json;
  return scan.ok ? scan.value.filter((d) => looksLikeRaid(d.type, d.infoName)) : [];
}

/** One physical disk's identity and SMART through the controller, or undefined when smartctl reached nothing. */
export async function readControllerDisk(run: Runner, through: string, deviceType: string): Promise<ControllerDisk | undefined> {
  const text = await stdoutOf(run, ['--json', '-a', '-d', deviceType, through]);
  const report = text ? parseSmartctlJsonText(text) : undefined;
  if (!report?.ok) return undefined;
  const smart = report.value;
  // An empty slot answers with an error message and no identity at all.
  if (!smart.serial && !smart.model) return undefined;
  return { through, deviceType, ...(smart.model ? { model: smart.model } : {}), ...(smart.serial ? { serial: smart.serial } : {}), ...(smart.capacityBytes !== undefined ? { capacityBytes: smart.capacityBytes } : {}), smart };
}

/** Slots tried behind an HPE controller: smartctl --scan does not list cciss disks, so they are probed by index. */
const CCISS_SLOTS = 32;

/**
 * Every physical disk behind the machine's RAID controllers. MegaRAID (and other types smartctl's
 * scan lists) from `smartctl --scan-open --json`; HPE Smart Array disks by `-d cciss,N` on
 * `cciss` (the node of an hpsa/smartpqi/cciss host), index by index until the first empty slot.
 */
export async function listControllerDisks(run: Runner, ccissNodes: readonly string[] = []): Promise<ControllerDisk[]> {
  const found: ControllerDisk[] = [];
  const scan = await stdoutOf(run, ['--scan-open', '--json']);
  for (const entry of scan ? raidScanEntries(scan) : []) {
    // `sat+megaraid,14` in -a output; the scan names plain `megaraid,14`, which smartctl accepts.
    const disk = entry.type ? await readControllerDisk(run, entry.name, entry.type) : undefined;
    if (disk) found.push(disk);
  }
  for (const node of ccissNodes) {
    for (let slot = 0; slot < CCISS_SLOTS; slot += 1) {
      const disk = await readControllerDisk(run, node, `cciss,${slot}`);
      if (!disk) break;
      found.push(disk);
    }
  }
  return found;
}

/** `ST6000NM0115-1YZ110 (serial ZAD2C11G, 6001 GB)`. */
export function diskWords(d: Pick<ControllerDisk, 'model' | 'serial' | 'capacityBytes'>): string {
  const facts = [d.serial ? `serial ${d.serial}` : 'serial unknown', ...(d.capacityBytes !== undefined ? [`${Math.round(d.capacityBytes / 1e9)} GB`] : [])];
  return `${d.model ?? 'unknown model'} (${facts.join(', ')})`;
}

/** The plain reason a physical disk behind a virtual disk is not erased on its own. */
export const BEHIND_VIRTUAL_DISK = 'behind a RAID virtual disk: switch the controller to JBOD/HBA mode to erase it as a physical drive';

/** A physical disk that gets its own row, not erased: its identity, the reason and `review`. */
export interface HiddenDiskRow {
  readonly disk: ControllerDisk;
  readonly reason: string;
  readonly disposition: 'review';
}

/**
 * How the controller's physical disks stand against the block devices the machine lists. A
 * physical disk whose serial a listed block device also carries is exposed directly (JBOD, HBA
 * mode, pass-through): it is erased as any disk, so it needs no row here. Every other one sits
 * behind a virtual disk and gets its own row, not erased.
 */
export function hiddenDiskRows(disks: readonly ControllerDisk[], listedSerials: readonly string[]): HiddenDiskRow[] {
  const listed = new Set(listedSerials.map((s) => s.trim().toUpperCase()).filter((s) => s.length > 0));
  return disks
    .filter((d) => !(d.serial && listed.has(d.serial.trim().toUpperCase())))
    .map((disk) => ({ disk, reason: BEHIND_VIRTUAL_DISK, disposition: 'review' as const }));
}

/**
 * The line a virtual disk's wipe result carries: what was erased is the controller's virtual
 * disk, and which physical disks it spans. Its erasure is no physical drive's certificate.
 */
export function virtualDiskWords(host: Pick<RaidHost, 'family'>, spans: readonly ControllerDisk[]): string {
  const members = spans.length > 0 ? spans.map(diskWords).join('; ') : 'physical disks the controller did not name';
  return `RAID virtual disk (${host.family}) spanning ${members}: this erases the virtual disk, not the physical drives as such`;
}
