import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolStarter } from '../../src/adapters/runner.js';
import { watchBays, type BayWatch } from '../../src/adapters/udev-monitor.js';
import type { Presence } from '../../src/station/debounce.js';
import { workspaceDir } from '../support/fixtures.js';

const SLOT = '/devices/pci0000:00/0000:00:03.0/virtio1/host2/target2:0:1/2:0:1:0/block/sdb';
const event = (action: string, devpath = SLOT, devtype = 'disk') =>
  `UDEV  [100.0] ${action.padEnd(8)} ${devpath} (block)\nACTION=${action}\nDEVPATH=${devpath}\nDEVNAME=/dev/${devpath.split('/').at(-1)}\nDEVTYPE=${devtype}\nID_PATH=pci-0000:00:03.0-scsi-0:0:1:0\n\n`;

let dir = '';
let watch: BayWatch | undefined;
afterEach(async () => {
  await watch?.stop();
  watch = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the watch against the fake udevadm replaying `stream`, and collects what settles. */
function watchReplay(stream: Array<{ delayMs: number; text: string }>): { presences: Presence[] } {
  dir = mkdtempSync(join(tmpdir(), 'udev-'));
  writeFileSync(join(dir, 'stream.json'), JSON.stringify(stream));
  const presences: Presence[] = [];
  watch = watchBays({
    settleMs: 300,
    onPresence: (p) => presences.push(p),
    start: createToolStarter({ env: { PATH: [join(workspaceDir, 'test', 'fake-bin'), process.env.PATH ?? ''].join(delimiter), FAKE_UDEV_STREAM: join(dir, 'stream.json') } }),
  });
  return { presences };
}

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
};

describe('watching the bays with udevadm monitor (a real child process)', () => {
  it('reports a drive seated with connector flaps once, with its udev path', async () => {
    const { presences } = watchReplay([
      { delayMs: 50, text: event('add') },
      { delayMs: 60, text: event('remove') },
      { delayMs: 60, text: event('add') + event('add', `${SLOT}/sdb1`, 'partition') },
    ]);
    await until(() => presences.length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(presences).toHaveLength(1);
    expect(presences[0]).toMatchObject({ devpath: SLOT, present: true });
    expect(presences[0]?.present && presences[0].event.properties.ID_PATH).toBe('pci-0000:00:03.0-scsi-0:0:1:0');
  });

  it('reports a pull-out once the slot has settled', async () => {
    const { presences } = watchReplay([
      { delayMs: 50, text: event('add') },
      { delayMs: 600, text: event('remove') },
    ]);
    await until(() => presences.length === 2);
    expect(presences.map((p) => p.present)).toEqual([true, false]);
  });

  it('ends the monitor process on stop, and says it was stopped', async () => {
    watchReplay([]);
    const ended = watch?.ended;
    await watch?.stop();
    watch = undefined;
    await expect(ended).resolves.toMatchObject({ byStop: true });
  });

  it('tells when the monitor dies on its own, with what it printed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'udev-'));
    watch = watchBays({ onPresence: () => undefined, start: createToolStarter({ env: { PATH: dir } }) });
    await expect(watch.ended).resolves.toMatchObject({ byStop: false, stderr: 'could not start udevadm: ENOENT' });
  });
});
