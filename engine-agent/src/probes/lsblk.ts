import { parsed, unparsable, type ParseResult } from './parse-result.js';
import { lines } from './text.js';
import { asArray, asBool, asCount, asText, at, compact } from './unknown.js';

/** One block device from lsblk, with its children (partitions, LVM, crypt). */
export interface LsblkDevice {
  readonly name: string;
  readonly path?: string;
  /** `disk`, `part`, `loop`, `rom`, `lvm`, `crypt`, ... */
  readonly type?: string;
  /** `sata`, `nvme`, `usb`, `sas`, ... (lsblk's TRAN). */
  readonly transport?: string;
  readonly rotational?: boolean;
  readonly removable?: boolean;
  readonly hotplug?: boolean;
  readonly readOnly?: boolean;
  readonly sizeBytes?: number;
  readonly logicalSectorSize?: number;
  readonly physicalSectorSize?: number;
  /** DISC-MAX: the largest discard the kernel passes to the device, bytes; 0 = no discard (TRIM) support. */
  readonly discardMaxBytes?: number;
  readonly model?: string;
  readonly serial?: string;
  readonly vendor?: string;
  readonly revision?: string;
  readonly wwn?: string;
  readonly fsType?: string;
  readonly mountpoints: readonly string[];
  readonly children: readonly LsblkDevice[];
}

function deviceFromJson(value: unknown): LsblkDevice | undefined {
  const name = asText(at(value, 'name'));
  if (!name) return undefined;
  // util-linux 2.37+ prints `mountpoints` (array, [null] when unmounted); older ones only `mountpoint`.
  const mountpoints = (asArray(at(value, 'mountpoints')) ?? [at(value, 'mountpoint')]).flatMap((m) => asText(m) ?? []);
  const children = (asArray(at(value, 'children')) ?? []).flatMap((c) => deviceFromJson(c) ?? []);
  return compact<LsblkDevice>({
    name,
    path: asText(at(value, 'path')),
    type: asText(at(value, 'type')),
    transport: asText(at(value, 'tran')),
    rotational: asBool(at(value, 'rota')),
    removable: asBool(at(value, 'rm')),
    hotplug: asBool(at(value, 'hotplug')),
    readOnly: asBool(at(value, 'ro')),
    // Without -b lsblk prints "20G"; only exact byte counts are accepted.
    sizeBytes: asCount(at(value, 'size')),
    logicalSectorSize: asCount(at(value, 'log-sec')),
    physicalSectorSize: asCount(at(value, 'phy-sec')),
    discardMaxBytes: asCount(at(value, 'disc-max')),
    model: asText(at(value, 'model')),
    serial: asText(at(value, 'serial')),
    vendor: asText(at(value, 'vendor')),
    revision: asText(at(value, 'rev')),
    wwn: asText(at(value, 'wwn')),
    fsType: asText(at(value, 'fstype')),
    mountpoints,
    children,
  });
}

/** Parses `lsblk -J -b -O` (any util-linux from 2.33 on). */
export function parseLsblkJson(input: unknown): ParseResult<LsblkDevice[]> {
  const devices = asArray(at(input, 'blockdevices'));
  if (!devices) return unparsable('not lsblk JSON (no "blockdevices" array)');
  return parsed(devices.flatMap((d) => deviceFromJson(d) ?? []));
}

/** Column spans: maximal runs of character positions that are non-blank in at least one line. */
function columnSpans(rows: readonly string[]): Array<[number, number]> {
  const width = Math.max(...rows.map((r) => r.length));
  const used = Array.from({ length: width }, (_, i) => rows.some((r) => (r[i] ?? ' ') !== ' '));
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < width; i++) {
    if (!used[i]) continue;
    const start = i;
    while (i < width && used[i]) i++;
    spans.push([start, i]);
  }
  return spans;
}

const TREE = /^[\s|`├└│─-]*/;

/**
 * Parses lsblk's text table (no -J), e.g. `lsblk -O` or `--output NAME,MODEL,VENDOR,REV`.
 * Columns are located from the layout of all rows, since lsblk aligns some left and some right.
 */
export function parseLsblkText(text: string): ParseResult<LsblkDevice[]> {
  const rows = lines(text.replace(/\t/g, ' ')).filter((l) => l.trim() !== '');
  const header = rows[0];
  if (!header || !/^NAME\b/.test(header)) return unparsable('lsblk text output has no NAME header');
  const spans = columnSpans(rows);
  const names = spans.map(([s, e]) => header.slice(s, e).trim());
  const roots: LsblkDevice[] = [];
  const stack: Array<{ depth: number; device: { children: LsblkDevice[] } & LsblkDevice }> = [];
  for (const row of rows.slice(1)) {
    const cell = (column: string) => {
      const index = names.indexOf(column);
      const span = spans[index];
      return span ? row.slice(span[0], span[1]).trim() || undefined : undefined;
    };
    const rawName = row.slice(0, spans[0]?.[1] ?? row.length);
    const depth = (TREE.exec(rawName)?.[0].length ?? 0) / 2;
    const mount = cell('MOUNTPOINT') ?? cell('MOUNTPOINTS');
    const num = (column: string) => {
      const v = cell(column);
      return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
    };
    const flag = (column: string) => asBool(cell(column));
    const device = compact({
      name: rawName.replace(TREE, '').trim(),
      type: cell('TYPE'),
      transport: cell('TRAN'),
      rotational: flag('ROTA'),
      removable: flag('RM'),
      hotplug: flag('HOTPLUG'),
      readOnly: flag('RO'),
      sizeBytes: num('SIZE'),
      logicalSectorSize: num('LOG-SEC'),
      physicalSectorSize: num('PHY-SEC'),
      discardMaxBytes: num('DISC-MAX'),
      model: cell('MODEL'),
      serial: cell('SERIAL'),
      vendor: cell('VENDOR'),
      revision: cell('REV'),
      wwn: cell('WWN'),
      fsType: cell('FSTYPE'),
      mountpoints: mount ? [mount] : [],
      children: [] as LsblkDevice[],
    });
    while (stack.length > 0 && (stack.at(-1)?.depth ?? -1) >= depth) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.device.children.push(device);
    else roots.push(device);
    stack.push({ depth, device });
  }
  return parsed(roots);
}

/** Every device in the tree, depth first. */
export function flattenLsblk(devices: readonly LsblkDevice[]): LsblkDevice[] {
  return devices.flatMap((d) => [d, ...flattenLsblk(d.children)]);
}
