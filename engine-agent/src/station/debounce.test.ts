import { describe, expect, it } from 'vitest';
import { createDebouncer, type Presence, type TimerPort } from './debounce.js';
import type { UdevEvent } from './udev-events.js';

/** Hand-driven time: `advance` fires what falls due, in order. */
function manualTimers(): TimerPort & { advance(ms: number): void } {
  let now = 0;
  let queue: Array<{ at: number; fn: () => void; live: boolean }> = [];
  return {
    set(ms, fn) {
      const t = { at: now + ms, fn, live: true };
      queue.push(t);
      return () => (t.live = false);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = queue.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        due.live = false;
        due.fn();
      }
      now = until;
      queue = queue.filter((t) => t.live);
    },
  };
}

const SLOT = '/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sdb';
const ev = (action: UdevEvent['action'], devtype: UdevEvent['devtype'] = 'disk', devpath = SLOT): UdevEvent => ({ action, devpath, devname: '/dev/sdb', devtype, seqnum: undefined, properties: {} });

function rig() {
  const timers = manualTimers();
  const settled: Presence[] = [];
  const d = createDebouncer({ settleMs: 1500, timers, onSettled: (p) => settled.push(p) });
  return { timers, settled, d };
}

describe('debouncing bay events', () => {
  it('reports a seated drive once, after the slot has been quiet for the settle time', () => {
    const { timers, settled, d } = rig();
    d.push(ev('add'));
    timers.advance(1499);
    expect(settled).toEqual([]);
    timers.advance(1);
    expect(settled.map((p) => p.present)).toEqual([true]);
  });

  it('collapses the flaps of a drive being seated into one presence', () => {
    const { timers, settled, d } = rig();
    for (const a of ['add', 'remove', 'add', 'change'] as const) {
      d.push(ev(a));
      timers.advance(300);
    }
    timers.advance(1500);
    expect(settled.map((p) => p.present)).toEqual([true]);
  });

  it('reports nothing for a drive that touched the connector and came straight out again', () => {
    const { timers, settled, d } = rig();
    d.push(ev('add'));
    timers.advance(200);
    d.push(ev('remove'));
    timers.advance(2000);
    expect(settled).toEqual([]);
  });

  it('reports a pull-out as absent, and a re-insert as present again', () => {
    const { timers, settled, d } = rig();
    d.push(ev('add'));
    timers.advance(2000);
    d.push(ev('remove'));
    timers.advance(2000);
    d.push(ev('add'));
    timers.advance(2000);
    expect(settled.map((p) => p.present)).toEqual([true, false, true]);
  });

  it('does not repeat a presence for a change event on a drive already reported', () => {
    const { timers, settled, d } = rig();
    d.push(ev('add'));
    timers.advance(2000);
    d.push(ev('change'));
    timers.advance(2000);
    expect(settled).toHaveLength(1);
  });

  it('settles each slot on its own clock', () => {
    const { timers, settled, d } = rig();
    d.push(ev('add', 'disk', '/devices/a/block/sdb'));
    timers.advance(1000);
    d.push(ev('add', 'disk', '/devices/b/block/sdc'));
    timers.advance(500);
    expect(settled.map((p) => p.devpath)).toEqual(['/devices/a/block/sdb']);
    timers.advance(1000);
    expect(settled.map((p) => p.devpath)).toEqual(['/devices/a/block/sdb', '/devices/b/block/sdc']);
  });

  it('ignores partitions: the station erases whole disks', () => {
    const { timers, settled, d } = rig();
    d.push(ev('add', 'partition'));
    timers.advance(5000);
    expect(settled).toEqual([]);
  });

  it('reports an insertion as an add even when udev followed the add with a change', () => {
    const { timers, settled, d } = rig();
    d.push(ev('add'));
    d.push(ev('change'));
    timers.advance(2000);
    expect(settled).toMatchObject([{ devpath: SLOT, present: true, event: { action: 'add' } }]);
  });

  it('reports a drive found seated (only a change, from the start-up trigger) as a change', () => {
    const { timers, settled, d } = rig();
    d.push(ev('change'));
    timers.advance(2000);
    expect(settled).toMatchObject([{ devpath: SLOT, present: true, event: { action: 'change' } }]);
  });
});

