import type { SysfsReader } from './sysfs-block.js';

/** The USB-to-SATA/NVMe bridge a disk is reached through (issue 30 item 5). */
export interface UsbBridge {
  /** USB vendor and product ids, lower-case hex: `174c`, `2362`. */
  readonly vendorId?: string;
  readonly productId?: string;
  /** The chip, when the ids, smartctl's device type or the bridge's own model name it: `ASMedia ASM2362`. */
  readonly chip?: string;
  /** What the USB device calls itself (`product`, `manufacturer` in sysfs). */
  readonly usbProduct?: string;
  readonly usbManufacturer?: string;
  /** smartctl's device type for the drive: `sat`, `usbjmicron`, `sntasmedia`, ... */
  readonly smartctlType?: string;
}

/**
 * Well-known bridge chips by USB vendor:product. Ids from the chip makers' reference designs as
 * the Linux USB ID repository lists them; an enclosure maker may reprogram them, so an id not
 * here still names the maker through smartctl's device type.
 */
const CHIPS: Readonly<Record<string, string>> = {
  '152d:0578': 'JMicron JMS578',
  '152d:0583': 'JMicron JMS583',
  '152d:0567': 'JMicron JMS567',
  '152d:0562': 'JMicron JMS562',
  '152d:2329': 'JMicron JM20329',
  '152d:2339': 'JMicron JM20339',
  '174c:55aa': 'ASMedia ASM1051E/ASM1053E/ASM1153E',
  '174c:1153': 'ASMedia ASM1153',
  '174c:235c': 'ASMedia ASM235CM',
  '174c:2362': 'ASMedia ASM2362',
  '174c:2364': 'ASMedia ASM2364',
  '0bda:9210': 'Realtek RTL9210',
  '0bda:9201': 'Realtek RTL9201',
  '04b4:6830': 'Cypress CY7C68300',
  '04b4:6831': 'Cypress CY7C68310',
  '2109:0715': 'VIA VL715',
  '2109:0716': 'VIA VL716',
};

/** The bridge maker smartctl's device type implies (smartmontools `-d` list). */
const MAKER_BY_TYPE: Readonly<Record<string, string>> = {
  usbjmicron: 'JMicron',
  sntjmicron: 'JMicron',
  usbasm1352r: 'ASMedia',
  sntasmedia: 'ASMedia',
  sntrealtek: 'Realtek',
  usbcypress: 'Cypress',
  usbprolific: 'Prolific',
  usbsunplus: 'Sunplus',
};

/** Bridges that answer IDENTIFY with their own model (`ASMT109x- Fast`, `JMS578`). */
const CHIP_FROM_MODEL: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => string]> = [
  [/^ASMT1(\d\d)/i, (m) => `ASMedia ASM1${m[1]}x`],
  [/^JMS(5\d\d)/i, (m) => `JMicron JMS${m[1]}`],
  [/^RTL(92\d\d)/i, (m) => `Realtek RTL${m[1]}`],
];

const hex = (text: string | undefined) => {
  const t = text?.trim().toLowerCase();
  return t && /^[0-9a-f]{4}$/.test(t) ? t : undefined;
};

/** The chip from ids, then the bridge's model string, then the maker smartctl's type implies. */
export function bridgeChip(ids: { vendorId?: string; productId?: string }, smartctlType?: string, model?: string): string | undefined {
  const byId = ids.vendorId && ids.productId ? CHIPS[`${ids.vendorId}:${ids.productId}`] : undefined;
  if (byId) return byId;
  for (const [re, name] of CHIP_FROM_MODEL) {
    const m = model ? re.exec(model.trim()) : null;
    if (m) return name(m);
  }
  const base = smartctlType?.split(/[,+]/)[0]?.toLowerCase();
  const maker = base ? MAKER_BY_TYPE[base] : undefined;
  return maker ? `${maker} (chip not identified)` : undefined;
}

/**
 * The USB device above `/sys/block/<name>`: the nearest ancestor of the disk's device that has
 * `idVendor` and `idProduct` (the interface directory `2-1:1.0` has none, its device `2-1` has).
 * Undefined when no USB device is on the way.
 */
export async function readUsbBridge(sys: SysfsReader, name: string, root = '', smartctlType?: string, model?: string): Promise<UsbBridge | undefined> {
  const device = await sys.realPath(`${root}/sys/block/${name}/device`);
  if (!device || !/\/usb\d+\//.test(device)) return undefined;
  const parts = device.split('/');
  for (let n = parts.length; n > 0; n -= 1) {
    const dir = parts.slice(0, n).join('/');
    if (/\/usb\d+$/.test(dir)) break; // the root hub: no bridge below it had ids
    const vendorId = hex(await sys.readText(`${root}${dir}/idVendor`));
    const productId = hex(await sys.readText(`${root}${dir}/idProduct`));
    if (!vendorId || !productId) continue;
    const usbProduct = (await sys.readText(`${root}${dir}/product`))?.trim();
    const usbManufacturer = (await sys.readText(`${root}${dir}/manufacturer`))?.trim();
    const chip = bridgeChip({ vendorId, productId }, smartctlType, model);
    return { vendorId, productId, ...(chip ? { chip } : {}), ...(usbProduct ? { usbProduct } : {}), ...(usbManufacturer ? { usbManufacturer } : {}), ...(smartctlType ? { smartctlType } : {}) };
  }
  return undefined;
}

/** `ASMedia ASM2362 USB bridge (174c:2362)`. */
export function bridgeWords(b: UsbBridge): string {
  const name = b.chip ?? ([b.usbManufacturer, b.usbProduct].filter(Boolean).join(' ') || 'unidentified');
  const ids = b.vendorId && b.productId ? ` (${b.vendorId}:${b.productId})` : '';
  return `${name} USB bridge${ids}`;
}

/** Why a firmware erase does not go through this kind of bridge, in the words a technician can check. */
export function firmwareFallbackReason(b: UsbBridge): string {
  const type = b.smartctlType?.toLowerCase() ?? '';
  if (type.startsWith('snt')) return 'the bridge passes NVMe admin commands for SMART and identify only, not Format NVM or Sanitize';
  if (type.startsWith('usb')) return "the bridge's vendor pass-through carries SMART reads only, not ATA security or sanitize commands";
  return 'SAT pass-through drops or times out long firmware commands, and an erase through a bridge has bricked drives';
}

/**
 * The row the Erasure Report carries for a bridged drive: which bridge, and when the plan is an
 * overwrite instead of a firmware erase, why. `fellBack` false when the plan is what it would
 * have been on a direct link (an overwrite-only drive loses nothing to the bridge).
 */
export function bridgeConnectionLine(b: UsbBridge, fellBack: boolean): string {
  const head = `Connected through: ${bridgeWords(b)}`;
  return fellBack ? `${head}; firmware erase not passed through: ${firmwareFallbackReason(b)}; the plan falls back to an overwrite of every sector` : head;
}
