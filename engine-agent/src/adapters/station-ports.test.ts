import { describe, expect, it } from 'vitest';
import type { AgentEnv } from '../agent.js';
import { loadConfig } from '../config.js';
import type { SystemView } from './system-view.js';
import { stationPorts, UDEV_NOT_RUNNING } from './station-ports.js';

/** A machine whose /run/udev holds `entries`; no tool may run (udevadm would wait for events that never come). */
function envWith(entries: string[]): { env: AgentEnv; ran: string[] } {
  const ran: string[] = [];
  const sys = { listDir: async (path: string) => (path === '/run/udev' ? entries : []), readText: async () => undefined, realPath: async () => undefined, deviceNumber: async () => undefined } as unknown as SystemView;
  const env = {
    config: loadConfig({ DATA_DIR: '/nonexistent' }),
    sys,
    run: async (cmd: string) => {
      ran.push(cmd);
      throw new Error(`${cmd} must not run here`);
    },
  } as unknown as AgentEnv;
  return { env, ran };
}

const boot = { account: 'a', recordId: 'CW-20261126-000000', fingerprint: async () => ({}) as never };
const certificates = { follow: () => undefined, numberOf: () => undefined };

describe("the real station's drive watch", () => {
  it('says plainly that udev is not running instead of waiting for events that never come', async () => {
    const { env, ran } = envWith([]);
    const watch = stationPorts(env, boot, certificates).watch(() => undefined);
    await expect(watch.ended).resolves.toEqual({ byStop: false, exitCode: undefined, stderr: '', reason: UDEV_NOT_RUNNING });
    expect(ran).toEqual([]);
  });
});

describe("the real station's probe of a seated drive", () => {
  function envWithSysfs(files: Record<string, string>): AgentEnv {
    const sys = { listDir: async () => [], readText: async (path: string) => files[path], realPath: async () => undefined, deviceNumber: async () => undefined } as unknown as SystemView;
    return { config: loadConfig({ DATA_DIR: '/nonexistent' }), sys, run: async () => Promise.reject(new Error('no tool runs in a probe')) } as unknown as AgentEnv;
  }

  it("takes the drive's size and media type from sysfs: rotational 1 is a disk, 0 solid state", async () => {
    const disk = await stationPorts(envWithSysfs({ '/sys/class/block/sdb/size': '7814037168\n', '/sys/class/block/sdb/queue/rotational': '1\n' }), boot, certificates).probe('/dev/sdb');
    expect(disk).toMatchObject({ device: '/dev/sdb', sizeBytes: 7814037168 * 512, mediaType: 'HDD' });
    const ssd = await stationPorts(envWithSysfs({ '/sys/class/block/sdc/queue/rotational': '0\n' }), boot, certificates).probe('/dev/sdc');
    expect(ssd).toMatchObject({ mediaType: 'SSD' });
  });

  it('leaves the media type unknown when sysfs does not say', async () => {
    expect(await stationPorts(envWithSysfs({}), boot, certificates).probe('/dev/sdd')).not.toHaveProperty('mediaType');
  });
});
