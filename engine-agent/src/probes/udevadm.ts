import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { lines } from './text.js';
import { compact } from './unknown.js';

/** A block device as `udevadm info` (P:/N:/S:/E: lines) describes it. */
export interface UdevDevice {
  readonly devpath?: string;
  readonly devname?: string;
  readonly symlinks: readonly string[];
  readonly properties: Readonly<Record<string, string>>;
  /** `ata`, `usb`, `scsi`, `nvme`, `cciss`, ... (ID_BUS). */
  readonly bus?: string;
  readonly model?: string;
  readonly vendor?: string;
  readonly serial?: string;
  readonly revision?: string;
  readonly wwn?: string;
}

/** Decodes udev's `\x20` escapes of the *_ENC properties. */
export const decodeUdev = (value: string): string =>
  value.replace(/\\x([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** An all-zero WWN is the controller's filler, not an identity. */
const realWwn = (value: string | undefined) => (value && !/^0x0+$/.test(value) ? value : undefined);

/** Parses `udevadm info --query=all --name=/dev/X`. */
export function parseUdevadmInfo(text: string): ParseResult<UdevDevice> {
  const properties: Record<string, string> = {};
  const symlinks: string[] = [];
  let devpath: string | undefined;
  for (const line of lines(text)) {
    const m = /^([PNSELM]): (.*)$/.exec(line);
    if (!m?.[1] || m[2] === undefined) continue;
    if (m[1] === 'P') devpath = m[2];
    else if (m[1] === 'S') symlinks.push(m[2]);
    else if (m[1] === 'E') {
      const eq = m[2].indexOf('=');
      if (eq > 0) properties[m[2].slice(0, eq)] = m[2].slice(eq + 1);
    }
  }
  if (!devpath && Object.keys(properties).length === 0) return unparsable('no udevadm P:/E: lines');
  // The *_ENC forms keep the spaces and commas that the plain forms replace with "_".
  const enc = (key: string) => {
    const raw = properties[`${key}_ENC`];
    return raw === undefined ? properties[key] : decodeUdev(raw).trim() || undefined;
  };
  return parsed(
    compact<UdevDevice>({
      devpath,
      devname: properties.DEVNAME,
      symlinks,
      properties,
      bus: properties.ID_BUS,
      model: enc('ID_MODEL'),
      vendor: enc('ID_VENDOR'),
      serial: properties.ID_SERIAL_SHORT ?? properties.ID_SERIAL,
      revision: properties.ID_REVISION,
      wwn: realWwn(properties.ID_WWN),
    }),
  );
}
