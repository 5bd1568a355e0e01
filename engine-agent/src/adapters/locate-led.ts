import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { LocateTarget, StationRuntimePorts } from '../api/station-controller.js';
import type { SysfsReader } from '../probes/sysfs-block.js';
import type { Runner } from './runner.js';
import type { BayLed } from '../station/bay-leds.js';

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
 * The `locate` attribute of an SES slot the map names (`connector.enclosure`), found without a
 * drive in it: the enclosure under /sys/class/enclosure whose `id` is the recorded one (or whose
 * name, where it has no id, as `enclosureSlotOf` records it), and its component named as the slot.
 */
export async function enclosureSlotLocate(sys: SysfsReader, enclosure: NonNullable<LocateTarget['enclosure']>): Promise<string | undefined> {
  // The slot comes from the saved map: a name with a path in it is no component of any enclosure.
  if (typeof enclosure.slot !== 'string' || !enclosure.slot || enclosure.slot.includes('/') || enclosure.slot === '.' || enclosure.slot === '..') return undefined;
  for (const name of (await sys.listDir('/sys/class/enclosure')).sort()) {
    const dir = `/sys/class/enclosure/${name}`;
    if (((await sys.readText(`${dir}/id`))?.trim() || name) !== enclosure.id) continue;
    // A dual-path backplane shows one enclosure twice, with the same id: either one will do.
    const attribute = `${dir}/${enclosure.slot}/locate`;
    if ((await sys.readText(attribute)) !== undefined) return attribute;
  }
  return undefined;
}

/**
 * One ledctl call (ledmon). `--listed-only` because by default ledctl also resets the LEDs of
 * every drive it manages that is not listed, which would stop another bay's blink. ledctl exits
 * non-zero when it cannot manage the drive's LED ("device not supported": AHCI without SGPIO,
 * no VMD/NPEM), when it is not root, or on a bad argument; not installed, the runner throws.
 */
async function ledctl(run: Runner, pattern: 'locate' | 'locate_off' | 'failure' | 'normal', device: string): Promise<boolean> {
  const r = await run('ledctl', ['--listed-only', `${pattern}=${device}`], { timeoutMs: 15_000 }).catch(() => undefined);
  return r?.exitCode === 0;
}

/** What the locate ports need. `root` prefixes sysfs writes, for a tree in a temp dir read through `nodeSystemView(root)`. */
export interface LocateDeps {
  readonly sys: SysfsReader;
  readonly run: Runner;
  readonly root?: string;
  /** Waits out the blink before the LED is turned off again; an unref'd timer by default. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * The station's locate ports. An SES slot blinks through its sysfs `locate` attribute, found from
 * the drive's `enclosure_device:*` link or, for an empty bay, from the slot the map records.
 * Without one, a drive's LED blinks through `ledctl` where ledmon is installed and the controller
 * manages LEDs. `canLocate` asks ledctl with a `locate_off` of that drive alone: harmless (nothing
 * blinks a drive as it is seated) and refused exactly where `locate` would be.
 */
export function locatePorts(deps: LocateDeps): Pick<StationRuntimePorts, 'canLocate' | 'locate'> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
  const sesAttribute = async (t: LocateTarget) => (t.device ? await locateAttribute(deps.sys, basename(t.device)) : undefined) ?? (t.enclosure ? await enclosureSlotLocate(deps.sys, t.enclosure) : undefined);
  return {
    canLocate: async (t) => (await sesAttribute(t)) !== undefined || (t.device !== undefined && (await ledctl(deps.run, 'locate_off', t.device))),
    locate: async (t) => {
      const attribute = await sesAttribute(t);
      if (attribute) {
        const path = `${deps.root ?? ''}${attribute}`;
        await writeFile(path, '1');
        void sleep(LOCATE_SECONDS * 1000).then(() => writeFile(path, '0')).catch(() => undefined);
        return true;
      }
      const device = t.device;
      if (!device || !(await ledctl(deps.run, 'locate', device))) return false;
      void sleep(LOCATE_SECONDS * 1000).then(() => ledctl(deps.run, 'locate_off', device));
      return true;
    },
  };
}

/** The IBPI pattern ledctl is given for what a bay's LEDs should show. */
const LEDCTL_PATTERN: Record<BayLed, 'locate' | 'failure' | 'normal'> = { working: 'locate', failed: 'failure', off: 'normal' };

/**
 * A bay's LEDs following its state (issue 32): an SES slot through its `locate` and `fault`
 * attributes (the slot of its drive, or the one the map records), else ledctl on the drive with
 * the IBPI pattern (`locate`, `failure`, `normal`). False when neither can drive them.
 */
export function bayLedPort(deps: LocateDeps): (target: LocateTarget, led: BayLed) => Promise<boolean> {
  return async (t, led) => {
    const locate = (t.device ? await locateAttribute(deps.sys, basename(t.device)) : undefined) ?? (t.enclosure ? await enclosureSlotLocate(deps.sys, t.enclosure) : undefined);
    if (locate) {
      const slot = locate.slice(0, -'/locate'.length);
      await writeFile(`${deps.root ?? ''}${locate}`, led === 'working' ? '1' : '0');
      // Not every SES slot has a fault element: the locate blink is what it can show then.
      if ((await deps.sys.readText(`${slot}/fault`)) !== undefined) await writeFile(`${deps.root ?? ''}${slot}/fault`, led === 'failed' ? '1' : '0');
      return true;
    }
    return t.device !== undefined && ledctl(deps.run, LEDCTL_PATTERN[led], t.device);
  };
}
