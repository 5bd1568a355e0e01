import { writeFile } from 'node:fs/promises';
import type { SysfsReader } from '../probes/sysfs-block.js';

/** How long a bay's locate LED blinks when the operator clicks it. */
export const LOCATE_SECONDS = 15;

/**
 * The SES slot's `locate` attribute of a disk behind an enclosure processor
 * (`/sys/class/block/<dev>/device/enclosure_device:<slot>/locate`), or undefined when the
 * backplane has none: the bay view then says it cannot blink that bay.
 */
export async function locateAttribute(sys: SysfsReader, kernelName: string): Promise<string | undefined> {
  const device = `/sys/class/block/${kernelName}/device`;
  const link = (await sys.listDir(device)).find((e) => e.startsWith('enclosure_device:'));
  if (!link) return undefined;
  const slot = await sys.realPath(`${device}/${link}`);
  if (!slot) return undefined;
  return (await sys.readText(`${slot}/locate`)) === undefined ? undefined : `${slot}/locate`;
}

/**
 * Blinks a bay's locate LED: writes 1 to the slot's `locate`, and 0 again after `seconds`.
 * `root` prefixes the path (tests use a copied sysfs tree). Resolves false when there is no
 * locate attribute to write.
 */
export async function blinkLocate(sys: SysfsReader, kernelName: string, opts: { seconds?: number; root?: string; sleep?: (ms: number) => Promise<void> } = {}): Promise<boolean> {
  const attr = await locateAttribute(sys, kernelName);
  if (!attr) return false;
  const path = `${opts.root ?? ''}${attr}`;
  await writeFile(path, '1');
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
  void sleep((opts.seconds ?? LOCATE_SECONDS) * 1000).then(() => writeFile(path, '0').catch(() => undefined));
  return true;
}
