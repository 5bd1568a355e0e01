/** One block-device event of `udevadm monitor --udev --property --subsystem-match=block`. */
export interface UdevEvent {
  readonly action: 'add' | 'remove' | 'change';
  /** Kernel device path, stable for a slot while the drive sits in it (`/devices/.../block/sdb`). */
  readonly devpath: string;
  readonly devname: string | undefined;
  /** Only whole disks matter to the station; partitions are reported so callers can skip them. */
  readonly devtype: 'disk' | 'partition' | undefined;
  readonly seqnum: number | undefined;
  /** All `KEY=value` properties of the event (ID_PATH, ID_SERIAL, ID_MODEL, …). */
  readonly properties: Readonly<Record<string, string>>;
}

const HEADER = /^UDEV\s+\[[\d.]+\]\s+(add|remove|change|move|bind|unbind)\s+(\S+)\s+\(block\)$/;

function toEvent(block: string[]): UdevEvent | undefined {
  const header = HEADER.exec(block[0] ?? '');
  if (!header) return undefined;
  const action = header[1];
  if (action !== 'add' && action !== 'remove' && action !== 'change') return undefined;
  const properties: Record<string, string> = {};
  for (const line of block.slice(1)) {
    const eq = line.indexOf('=');
    if (eq > 0) properties[line.slice(0, eq)] = line.slice(eq + 1);
  }
  const devtype = properties.DEVTYPE === 'disk' || properties.DEVTYPE === 'partition' ? properties.DEVTYPE : undefined;
  const seqnum = properties.SEQNUM !== undefined && /^\d+$/.test(properties.SEQNUM) ? Number(properties.SEQNUM) : undefined;
  return { action, devpath: properties.DEVPATH ?? (header[2] as string), devname: properties.DEVNAME, devtype, seqnum, properties };
}

/**
 * An incremental parser: feed it chunks of `udevadm monitor` output as they arrive (a line, or
 * an event, may be split anywhere) and it returns the events completed so far. Events are
 * blocks of lines separated by a blank line; anything before the first header (udevadm's
 * banner) and any non-block event is dropped.
 */
export function createUdevParser(): (chunk: string) => UdevEvent[] {
  let pending = '';
  let block: string[] = [];
  return (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    const events: UdevEvent[] = [];
    for (const raw of lines) {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '') {
        const ev = block.length > 0 ? toEvent(block) : undefined;
        if (ev) events.push(ev);
        block = [];
      } else if (HEADER.test(line) || block.length > 0) {
        block.push(line);
      }
    }
    return events;
  };
}
