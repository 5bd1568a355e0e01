import { basename } from 'node:path';
import type { Bay, Fingerprint } from '@erasure/shared';
import { openCloud, sendRecord, type AgentEnv } from '../agent.js';
import type { ControllerFound, StationRuntimePorts } from '../api/station-controller.js';
import { readDriveIdentity } from '../probes/drive-identity.js';
import { parseSmartctlJsonText } from '../probes/smartctl-json.js';
import { guardTarget } from '../safety/guard.js';
import type { DriveFacts } from '../station/bay-machine.js';
import { resolveLane } from '../station/lanes.js';
import { denialReason } from './cloud-client.js';
import type { StationChassis } from './chassis-fingerprint.js';
import { bayLedPort, locatePorts } from './locate-led.js';
import { stationBayRunner } from './station-bay-runner.js';
import { saveStationSettings } from './station-settings.js';
import { watchBays } from './udev-monitor.js';
import { SIM_BAYS, SIM_CONTROLLER, seatedDrives, watchSimulatedBays } from '../simulate/backplane.js';
import { laneFromIdPath } from '../station/lanes.js';

/** PCI class codes of storage controllers and USB hosts (the `class` file under /sys/bus/pci/devices/*). */
const CONTROLLER_CLASSES: Record<string, { transport: string; description: string }> = {
  '0x010000': { transport: 'scsi', description: 'SCSI controller' },
  '0x010400': { transport: 'raid', description: 'RAID controller' },
  '0x010601': { transport: 'sata', description: 'SATA controller (AHCI)' },
  '0x010700': { transport: 'sas', description: 'SAS controller' },
  '0x010802': { transport: 'nvme', description: 'NVMe controller' },
  '0x0c0330': { transport: 'usb', description: 'USB 3 host controller (xHCI)' },
};

/** The storage controllers of this machine, from sysfs. */
export async function storageControllers(env: AgentEnv): Promise<ControllerFound[]> {
  const found: ControllerFound[] = [];
  for (const address of (await env.sys.listDir('/sys/bus/pci/devices')).sort()) {
    const cls = (await env.sys.readText(`/sys/bus/pci/devices/${address}/class`))?.trim();
    const known = cls ? CONTROLLER_CLASSES[cls] : undefined;
    if (known) found.push({ controller: address, ...known });
  }
  return found;
}

/**
 * What the station shows of a seated drive at once: model and serial from udev, size from sysfs,
 * and the disk's identity (dev_t, diskseq, serial) that the bay's work is bound to.
 */
async function seatedFacts(env: AgentEnv, device: string, properties: Readonly<Record<string, string>>): Promise<DriveFacts> {
  const identity = await readDriveIdentity(env.sys, device);
  const sectors = Number((await env.sys.readText(`/sys/class/block/${basename(device)}/size`))?.trim());
  const model = properties.ID_MODEL?.replace(/_/g, ' ');
  const serial = properties.ID_SERIAL_SHORT;
  const rotational = (await env.sys.readText(`/sys/class/block/${basename(device)}/queue/rotational`))?.trim();
  const mediaType = rotational === '1' ? 'HDD' : rotational === '0' ? 'SSD' : undefined;
  return { device, health: 'unknown', ...(identity ? { identity } : {}), ...(model ? { model } : {}), ...(serial ? { serial } : {}), ...(Number.isFinite(sectors) && sectors > 0 ? { sizeBytes: sectors * 512 } : {}), ...(mediaType ? { mediaType } : {}) };
}

/** SMART overall health from smartctl; unknown when the drive (or its USB bridge) will not say. */
async function smartHealth(env: AgentEnv, device: string): Promise<DriveFacts['health']> {
  const smart = await env.run('smartctl', ['-H', '-j', device], { timeoutMs: 20_000 }).catch(() => undefined);
  const report = smart ? parseSmartctlJsonText(smart.stdout) : undefined;
  const passed = report?.ok ? report.value.healthPassed : undefined;
  return passed === true ? 'passed' : passed === false ? 'failed' : 'unknown';
}

/**
 * The station's real ports: udev through `udevadm`, lanes from sysfs, the gateway for the map
 * and each bay's session, the locate LEDs (SES slot, else ledctl). `boot` is this boot's unlocked session.
 */
export function stationPorts(
  env: AgentEnv,
  boot: { account: string; recordId: string; fingerprint: () => Promise<Fingerprint> },
  certificates: { follow(jobId: string): void; numberOf(jobId: string): string | undefined },
  chassis?: StationChassis,
): StationRuntimePorts {
  const call = async <T>(fn: (client: Awaited<ReturnType<typeof openCloud>>) => Promise<T>) => fn(await openCloud(env));
  return {
    lookupMap: async () => {
      const system = (await boot.fingerprint()).system ?? {};
      const r = await call((c) => c.call('chassisLookup', { system: { ...(system.uuid ? { uuid: system.uuid } : {}), ...(system.serial ? { serial: system.serial } : {}) } }));
      if (!r.ok) return { ok: false, reason: denialReason(r.error) };
      if (!r.value.found) return { ok: true };
      const bays = r.value.map.bays as Bay[];
      // The boot's asset report went out before the map was known: if it listed a drive sitting in
      // one of the bays (an AHCI port says nothing of hot-swap), the chassis is reported again without it.
      if (await chassis?.mapKnown(bays.map((b) => b.lane))) {
        void sendRecord(env, boot.recordId, boot.fingerprint).then(
          (sent) => process.stdout.write(`erasure-agent: station: chassis reported again without its bays' drives${sent.ok ? '' : ` (failed: ${sent.reason})`}\n`),
          () => undefined,
        );
      }
      const site = r.value.map.site?.trim();
      return { ok: true, name: r.value.map.name, bays, ...(site ? { site } : {}) };
    },
    saveMap: async (map) => {
      // The save upserts the chassis asset from this fingerprint (spec 4.2 rule 6): without the bays' drives.
      await chassis?.mapKnown(map.bays.map((b) => b.lane));
      const r = await call(async (c) => c.call('chassisMap', { record_id: boot.recordId, engine_version: env.version, fingerprint: await boot.fingerprint(), map: { name: map.name, ...(map.site ? { site: map.site } : {}), bays: [...map.bays] } }));
      return r.ok ? { ok: true } : { ok: false, reason: denialReason(r.error) };
    },
    ...(env.config.ERASURE_SIMULATE ? simulatedBackplanePorts(env) : machinePorts(env)),
    runBay: stationBayRunner(env, boot),
    followCertificate: (jobId) => certificates.follow(jobId),
    certificateOf: (jobId) => certificates.numberOf(jobId),
    log: (line) => process.stdout.write(`erasure-agent: station: ${line}\n`),
    savePolicy: (policy) => saveStationSettings(env.config.DATA_DIR, { policy }),
  };
}

/** What the station sees of the machine itself: udev, sysfs, smartctl, the safety guard, the locate LEDs. */
type MachinePorts = Pick<StationRuntimePorts, 'watch' | 'announcePresent' | 'controllers' | 'laneOf' | 'probe' | 'health' | 'guard' | 'canLocate' | 'locate' | 'showBayLed'>;

/** Said when udev is not running: `udevadm monitor` would then wait for events that never come. */
export const UDEV_NOT_RUNNING = 'udev is not running on this machine (no /run/udev/control): start systemd-udevd, or try a station without hardware with `serve --station --simulate`';

/** The real machine: drives come and go through `udevadm monitor`, once udev is found running. */
function machinePorts(env: AgentEnv): MachinePorts {
  const properties = new Map<string, Readonly<Record<string, string>>>();
  return {
    watch: (onPresence) => {
      const gate = env.sys.listDir('/run/udev').then((entries) => entries.includes('control'));
      let inner: ReturnType<typeof watchBays> | undefined;
      const started = gate.then((running) => {
        if (!running) return undefined;
        inner = watchBays({
          onPresence: (p) => {
            if (p.present) properties.set(p.event.devname ?? p.devpath, p.event.properties);
            onPresence(p);
          },
        });
        return inner;
      });
      return {
        ended: started.then((w) => (w ? w.ended : { byStop: false, exitCode: undefined, stderr: '', reason: UDEV_NOT_RUNNING })),
        stop: async () => {
          await (await started)?.stop();
        },
      };
    },
    announcePresent: async () => {
      await env.run('udevadm', ['trigger', '--action=change', '--subsystem-match=block', '--property-match=DEVTYPE=disk'], { timeoutMs: 30_000 });
    },
    controllers: () => storageControllers(env),
    laneOf: async (p) => (p.event.devname ? resolveLane(env.sys, basename(p.event.devname), p.event.properties.ID_PATH) : undefined),
    probe: (device) => seatedFacts(env, device, properties.get(device) ?? {}),
    health: (device) => smartHealth(env, device),
    guard: async (device) => {
      const v = await guardTarget(env.sys, device, [device]);
      return v.ok ? { ok: true } : { ok: false, reason: v.reason, own: v.code === 'boot_medium' || v.code === 'data_volume' };
    },
    ...locatePorts({ sys: env.sys, run: env.run }),
    // The bays' LEDs follow their states where the enclosure has them (issue 32).
    showBayLed: bayLedPort({ sys: env.sys, run: env.run }),
  };
}

/**
 * The simulated machine's backplane (`--simulate`): bays backed by files under DATA_DIR, seated
 * and pulled with `erasure-agent sim insert|pull BAY`. Only the event source and the disks are
 * simulated; the station, its lanes and each bay's check-in, erase and verify are the real ones.
 */
function simulatedBackplanePorts(env: AgentEnv): MachinePorts {
  const dataDir = env.config.DATA_DIR;
  let bays: ReturnType<typeof watchSimulatedBays> | undefined;
  return {
    watch: (onPresence) => {
      bays = watchSimulatedBays(dataDir, onPresence);
      return bays;
    },
    announcePresent: async () => bays?.announcePresent(),
    controllers: async () => [{ controller: SIM_CONTROLLER, transport: 'sata', description: `Simulated SATA backplane (${SIM_BAYS} bays)`, bays: SIM_BAYS }],
    laneOf: async (p) => laneFromIdPath(p.event.properties.ID_PATH),
    probe: async (device) => {
      const d = (await seatedDrives(dataDir)).find((x) => x.device === device);
      // The simulated bays are solid state, as the simulated machine's bays are (profile.ts).
      return { device, health: 'unknown', ...(d ? { model: d.model, serial: d.serial, sizeBytes: d.sizeBytes, mediaType: 'SSD' as const } : {}) };
    },
    health: async () => 'passed',
    // Only a seated bay's own file is ever a target.
    guard: async (device) => ((await seatedDrives(dataDir)).some((d) => d.device === device) ? { ok: true } : { ok: false, reason: `${device} is not a drive seated in the simulated backplane` }),
    canLocate: async () => false,
    locate: async () => false,
  };
}
