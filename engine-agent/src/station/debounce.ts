import type { UdevEvent } from './udev-events.js';

/** What the station learns once a slot has settled: a disk is there (with its last event), or gone. */
export type Presence = { readonly devpath: string; readonly present: true; readonly event: UdevEvent } | { readonly devpath: string; readonly present: false };

/** Timers, passed in so tests drive time by hand. */
export interface TimerPort {
  set(ms: number, fn: () => void): () => void;
}

export const DEFAULT_SETTLE_MS = 1500;

/**
 * Collapses the flaps of a drive being seated (add, change, remove, add within a second, as a
 * backplane's connector makes and breaks contact) into one settled presence per device path,
 * reported `settleMs` after the last event for that path, and only when it changed from what
 * was last reported. Partitions are ignored: the station erases whole disks.
 */
export function createDebouncer(opts: { settleMs?: number; timers: TimerPort; onSettled: (p: Presence) => void }): { push(ev: UdevEvent): void; stop(): void } {
  const settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
  const latest = new Map<string, UdevEvent>();
  const timers = new Map<string, () => void>();
  const reported = new Map<string, boolean>();
  /** Device paths with an add since their last report: a change that follows is still an insertion. */
  const added = new Set<string>();
  const settle = (devpath: string) => {
    timers.delete(devpath);
    const last = latest.get(devpath);
    latest.delete(devpath);
    if (!last) return;
    // udev follows a disk's add with a change once it has read the partition table.
    const ev: UdevEvent = last.action === 'change' && added.has(devpath) ? { ...last, action: 'add' } : last;
    added.delete(devpath);
    const present = ev.action !== 'remove';
    const before = reported.get(devpath);
    // A slot never reported present that settles absent was never anything to the station.
    if (!present && before !== true) return;
    // A change with nothing reported before is a drive that was already there: report it too.
    if (before === present && !(present && ev.action === 'add')) return;
    reported.set(devpath, present);
    opts.onSettled(present ? { devpath, present, event: ev } : { devpath, present });
  };
  return {
    push(ev) {
      if (ev.devtype === 'partition') return;
      latest.set(ev.devpath, ev);
      if (ev.action === 'add') added.add(ev.devpath);
      if (ev.action === 'remove') added.delete(ev.devpath);
      timers.get(ev.devpath)?.();
      timers.set(ev.devpath, opts.timers.set(settleMs, () => settle(ev.devpath)));
    },
    stop() {
      for (const cancel of timers.values()) cancel();
      timers.clear();
    },
  };
}
