import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { subsystemKey } from '../../src/agent.js';

/**
 * Which drives may not be erased at the same time: an NVMe firmware erase acts on its whole
 * subsystem. Read from a captured sysfs tree (the real SystemView rooted at a directory).
 */
describe('NVMe subsystem key of a firmware erase', () => {
  const root = mkdtempSync(join(tmpdir(), 'subsys-'));
  const nqn = 'nqn.2019-08.org.qemu:NVME-0001';
  for (const ctrl of ['nvme0', 'nvme1']) {
    mkdirSync(join(root, 'sys/class/nvme', ctrl), { recursive: true });
    writeFileSync(join(root, 'sys/class/nvme', ctrl, 'subsysnqn'), `${nqn}\n`);
  }
  const sys = { sys: nodeSystemView(root) };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('gives two controllers of one subsystem the same key, from its NQN', async () => {
    expect(await subsystemKey(sys, '/dev/nvme0n1', 'nvme-sanitize-crypto')).toBe(`nvme:${nqn}`);
    expect(await subsystemKey(sys, '/dev/nvme1n2', 'nvme-format-user-data')).toBe(`nvme:${nqn}`);
  });

  it('falls back to the controller when sysfs does not name the subsystem', async () => {
    expect(await subsystemKey(sys, '/dev/nvme7n1', 'nvme-sanitize-block')).toBe('nvme:nvme7');
  });

  it('gives an overwrite, or a drive of another kind, no key: nothing keeps it from running beside others', async () => {
    expect(await subsystemKey(sys, '/dev/nvme0n1', 'overwrite')).toBeUndefined();
    expect(await subsystemKey(sys, '/dev/sda', 'ata-sanitize-block')).toBeUndefined();
  });
});
