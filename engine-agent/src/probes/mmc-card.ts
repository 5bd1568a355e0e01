import type { Runner } from '../adapters/runner.js';
import { ToolSpawnError } from '../adapters/runner.js';
import { parsed, unparsable, type ParseResult } from './parse-result.js';
import type { SysfsReader } from './sysfs-block.js';
import { compact } from './unknown.js';

// eMMC and SD cards (issue 30 item 4): what the card is, from sysfs (the kernel's copy of its CID),
// and for an eMMC what its EXT_CSD says it can erase (`mmc extcsd read`, mmc-utils).

/** A whole card: `mmcblk0`, never its boot partitions (`mmcblk0boot0`/`boot1`) nor its RPMB area. */
export const isMmcCard = (name: string) => /^mmcblk\d+$/.test(name.replace(/^\/dev\//, ''));

/**
 * An eMMC's hardware boot partitions and its replay-protected memory block: the kernel lists them
 * as block devices of their own (boot0/boot1 read-only by default), but they are areas of the card,
 * not drives; the card itself is the drive.
 */
export const isMmcSubArea = (name: string) => /^mmcblk\d+(boot\d+|rpmb|gp\d+)$/.test(name.replace(/^\/dev\//, ''));

/** The card as the kernel read it at insertion (sysfs `device/*`, from its CID register). */
export interface MmcCard {
  /** `emmc` when sysfs `device/type` is MMC, `sd` for SD (SDHC/SDXC), undefined when unreadable. */
  readonly kind?: 'emmc' | 'sd';
  /** Product name (CID PNM), e.g. `DG4016`, `SC32G`, QEMU's `QEMU!`. */
  readonly name?: string;
  /** Product serial number (CID PSN), as sysfs prints it (`0x1234abcd`). */
  readonly serial?: string;
  /** Manufacturer id (CID MID), as sysfs prints it (`0x000015`). */
  readonly manfid?: string;
  /** Manufacturing date (CID MDT), `MM/YYYY`. */
  readonly date?: string;
  /** The whole CID register, hex. */
  readonly cid?: string;
}

const trimmed = (text: string | undefined) => text?.trim() || undefined;

/** Reads `/sys/block/<name>/device/*` of an MMC/SD card; undefined when the name is no card. */
export async function readMmcCard(sys: SysfsReader, name: string): Promise<MmcCard | undefined> {
  const kernelName = name.replace(/^\/dev\//, '');
  if (!isMmcCard(kernelName)) return undefined;
  const read = async (attr: string) => trimmed(await sys.readText(`/sys/block/${kernelName}/device/${attr}`));
  const type = await read('type');
  return compact<MmcCard>({
    kind: type === 'MMC' ? 'emmc' : type === 'SD' ? 'sd' : undefined,
    name: await read('name'),
    serial: await read('serial'),
    manfid: await read('manfid'),
    date: await read('date'),
    cid: await read('cid'),
  });
}

/** What an eMMC's EXT_CSD says about erasing it (JEDEC JESD84-B51 §7.4). */
export interface MmcExtCsd {
  /** EXT_CSD_REV [192], as mmc-utils names it: `1.8 (MMC 5.1)`. */
  readonly revision: string;
  /** SEC_FEATURE_SUPPORT [231]. */
  readonly secFeatureSupport: number;
  /** Bit 6 SEC_SANITIZE: the Sanitize operation. */
  readonly sanitize: boolean;
  /** Bit 0 SECURE_ER_EN: Secure Erase and Secure Trim (obsolete from eMMC 4.51 on, still honoured where set). */
  readonly secureErase: boolean;
  /** Bit 4 SEC_GB_CL_EN: TRIM (and, with bit 0, Secure Trim). */
  readonly trim: boolean;
  /** SEC_COUNT [215:212]: user-area sectors of 512 bytes (block-addressed cards). */
  readonly sectors?: number;
  /** ERASED_MEM_CONT [181]: what erased memory reads as, 0x00 or 0xFF. */
  readonly erasedContent?: 0 | 0xff;
}

/** Parses `mmc extcsd read <device>` (mmc-utils' printout of the 512-byte EXT_CSD register). */
export function parseMmcExtcsd(text: string): ParseResult<MmcExtCsd> {
  const rev = /Extended CSD rev ([\d.]+ \([^)]*\))/.exec(text)?.[1];
  const sec = /\[SEC_FEATURE_SUPPORT: 0x([0-9a-f]+)\]/i.exec(text)?.[1];
  if (!rev) return unparsable('no "Extended CSD rev" header: not an EXT_CSD printout');
  // mmc-utils prints SEC_FEATURE_SUPPORT from EXT_CSD rev 1.5 (eMMC 4.41) on; older cards have none of these features.
  const bits = sec === undefined ? 0 : parseInt(sec, 16);
  const count = /\[SEC_COUNT: 0x([0-9a-f]+)\]/i.exec(text)?.[1];
  const erased = /\[ERASED_MEM_CONT: 0x([0-9a-f]+)\]/i.exec(text)?.[1];
  const erasedContent = erased === undefined ? undefined : parseInt(erased, 16) === 0 ? 0 : 0xff;
  return parsed(
    compact<MmcExtCsd>({
      revision: rev,
      secFeatureSupport: bits,
      sanitize: (bits & 0x40) !== 0,
      secureErase: (bits & 0x01) !== 0,
      trim: (bits & 0x10) !== 0,
      sectors: count === undefined ? undefined : parseInt(count, 16),
      erasedContent,
    }),
  );
}

/** The card's EXT_CSD, or why it could not be read (an SD card has none and is never asked). */
export type MmcExtCsdProbe = { readonly ok: true; readonly value: MmcExtCsd } | { readonly ok: false; readonly reason: string };

/** Runs `mmc extcsd read` on an eMMC. A missing mmc-utils or a failing read is a reason, not an error. */
export async function readMmcExtcsd(run: Runner, device: string): Promise<MmcExtCsdProbe> {
  try {
    const r = await run('mmc', ['extcsd', 'read', device], { timeoutMs: 30_000 });
    if (r.exitCode !== 0) {
      const said = `${r.stderr}\n${r.stdout}`.split('\n').map((l) => l.trim()).filter(Boolean).slice(-2).join(' / ');
      return { ok: false, reason: `mmc extcsd read failed (exit ${r.exitCode ?? '?'}${said ? `: ${said}` : ''})` };
    }
    const p = parseMmcExtcsd(r.stdout);
    return p.ok ? p : { ok: false, reason: `mmc extcsd read: ${p.reason}` };
  } catch (error) {
    if (error instanceof ToolSpawnError) return { ok: false, reason: 'mmc-utils (mmc) is not installed' };
    throw error;
  }
}

/** The card in plain words for a drive row and a report: "SD card", "eMMC (built-in flash)". */
export function mmcCardWords(kind: MmcCard['kind']): string {
  if (kind === 'emmc') return 'eMMC (built-in flash storage)';
  if (kind === 'sd') return 'SD card';
  return 'MMC/SD card';
}
