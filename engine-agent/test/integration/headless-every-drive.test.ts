import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listDrives, runErase } from '../../src/agent.js';
import { buildCapabilities } from '../../src/drives/capabilities.js';
import { planErase } from '../../src/drives/plan-erase.js';
import { BEHIND_VIRTUAL_DISK } from '../../src/probes/raid-disks.js';
import { withConnections } from '../../src/probes/drive-connection.js';
import { parseSmartctlText } from '../../src/probes/smartctl-text.js';
import { fakeRunner } from '../support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import { sysfsTree, type SysfsTree } from '../support/sysfs-tree.js';
import { parseBootOptions } from '../../src/image/boot-options.js';
import { hiddenBehind, runHeadless } from '../../src/image/headless.js';
import { startFakeGateway } from '../support/fake-gateway.js';
import { outboxAgentEnv } from '../support/outbox-env.js';

let dir = '';
let closeGateway: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeGateway?.();
  closeGateway = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('headless: every drive the agent sees gets a wipe result', () => {
  it('a drive the planner refuses gets its own failed result with the reason and review, never a certificate; the others one result each', async () => {
    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    dir = mkdtempSync(join(tmpdir(), 'headless-every-'));
    const env = outboxAgentEnv(dir, gateway.url);
    const drives = await listDrives(env);
    const refused = drives[0]!;
    const lines: string[] = [];
    const code = await runHeadless(env, parseBootOptions(`erasure.mode=headless erasure.devices=all erasure.confirm=yes erasure.method=${refused.device}:bsi-gs`), (l) => lines.push(l));
    const results = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
    expect(results.map((r) => r.drive_serial).sort()).toEqual(drives.map((d) => d.capabilities.serial).sort());
    const own = results.find((r) => r.drive_serial === refused.capabilities.serial)!;
    expect(own).toMatchObject({ wipe_status: 'failed', disposition: 'review', validation: 'rejected', drive_model: refused.capabilities.model });
    expect(String(own.verification_result)).toMatch(/^Not erased: /);
    for (const r of results.filter((x) => x !== own)) expect(r).toMatchObject({ wipe_status: 'completed', disposition: 'sanitized' });
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^result ${refused.device}: NOT ERASED, wipe result wr_\\d+, certificate -$`)));
    expect(code).toBe(3);
  });
});

const PCI = '/sys/devices/pci0000:00/0000:00:03.0/0000:02:00.0';

/** `name` as a MegaRAID virtual disk (SCSI channel 2) in a fake sysfs tree. */
function megaraidVirtualDisk(t: SysfsTree, name: string, lun: number): void {
  const dev = `${PCI}/host0/target0:2:${lun}/0:2:${lun}:0`;
  t.file(`${dev}/block/${name}/size`, '0\n');
  t.link(`/sys/block/${name}`, `${dev}/block/${name}`);
  t.link(`${dev}/block/${name}/device`, dev);
}

describe.skipIf(!fixturesPresent)(`every physical disk behind a RAID virtual disk gets its own result, over ${FIXTURES_SKIP_NOTE}`, () => {
  let t: SysfsTree | undefined;
  afterEach(() => t?.remove());

  it('each hidden disk is reported once, with its own serial and model, failed, review, the reason, and no certificate', async () => {
    t = sysfsTree();
    megaraidVirtualDisk(t, 'sda', 0);
    megaraidVirtualDisk(t, 'sdb', 1);
    t.link(`${PCI}/driver`, '/sys/bus/pci/drivers/megaraid_sas');
    const smart = parseSmartctlText(fixtureText('smartctl', 'avago-mr9361-16i-raid-virtual-disk-smart-unavailable.txt'));
    if (!smart.ok) throw new Error(smart.reason);
    const { run } = fakeRunner({
      smartctl: [
        { match: '--scan-open', fixture: 'smartctl/scan-megaraid-smartctl-scan-j.json' },
        { match: '-d megaraid,0 /dev/bus/0$', fixture: 'smartctl/seagate-st6000nm0115-megaraid-sat-smartctl-all.json' },
        { match: '-d megaraid,1 /dev/bus/0$', fixture: 'smartctl/wdc-wd4000fyyx-megaraid-sat-smartctl-a.json' },
      ],
    });
    const vd = (device: string) => {
      const capabilities = buildCapabilities({ device, smart: smart.value });
      return { device, internal: true, capabilities, plan: planErase(capabilities), smart: smart.value };
    };
    // Two virtual disks of one controller: both name the same two physical disks.
    const seen = await withConnections({ sys: t.sys, run }, [vd('/dev/sda'), vd('/dev/sdb')]);
    const notErased = seen.reduce<ReturnType<typeof hiddenBehind>>((acc, d) => [...acc, ...hiddenBehind(d, acc)], []);
    expect(notErased.map((n) => [n.serial, n.model])).toEqual([
      ['ZAD2C11G', 'ST6000NM0115-1YZ110'],
      ['XXXXXXXXXXXX', 'WD4000FYYX'],
    ]);

    const gateway = await startFakeGateway();
    closeGateway = gateway.close;
    dir = mkdtempSync(join(tmpdir(), 'headless-every-'));
    const session = await runErase(outboxAgentEnv(dir, gateway.url), [], {}, { notErased });
    const results = gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body);
    expect(results).toHaveLength(2);
    // The two results are sent side by side: they may arrive in either order.
    expect(results.map((r) => r.drive_serial).sort()).toEqual(notErased.map((n) => n.serial).sort());
    for (const n of notErased) {
      const r = results.find((x) => x.drive_serial === n.serial);
      expect(r).toMatchObject({ drive_model: n.model, wipe_status: 'failed', disposition: 'review', validation: 'rejected', passes_completed: null });
      expect(r?.verification_result).toBe(`Not erased: ${BEHIND_VIRTUAL_DISK}`);
    }
    expect(session.phase === 'done' && session.reports.map((x) => x.certificateStatus)).toEqual([null, null]);
  });
});
