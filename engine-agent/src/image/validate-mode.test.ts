import { describe, expect, it } from 'vitest';
import type { GuardVerdict } from '../safety/guard.js';
import { validateAttachedDrives, validateExitCode, type DriveValidation } from './validate-mode.js';

const drives = [
  { device: '/dev/sda', serial: 'STICK-01' },
  { device: '/dev/sdb', serial: 'SATA-1' },
  { device: '/dev/sdc', serial: 'SCSI-1' },
  { device: '/dev/vda', serial: 'VIRTIO-1' },
  { device: '/dev/vdb', serial: undefined },
];
const guard = async (device: string): Promise<GuardVerdict> =>
  device === '/dev/sda'
    ? { ok: false, path: device, code: 'boot_medium', reason: '/dev/sda carries the running system' }
    : { ok: true, path: device, kernelName: device.slice('/dev/'.length) };

async function run(validate: (d: { device: string; serial: string }) => Promise<DriveValidation>) {
  const lines: string[] = [];
  const asked: string[] = [];
  const summary = await validateAttachedDrives(
    {
      drives: async () => drives,
      guard,
      validate: (d) => {
        asked.push(d.device);
        return validate(d);
      },
    },
    (line) => lines.push(line),
  );
  return { lines, asked, summary };
}

describe('erasure.mode=validate: the drives of this machine the cloud picked are read and reported', () => {
  it('looks up every drive but the boot medium, and says approved, rejected or not picked per serial in plain words', async () => {
    const { lines, asked, summary } = await run(async (d) =>
      d.serial === 'SATA-1'
        ? { kind: 'approved', certificateNumber: 'CW-000101', words: 'every sector holds zeros' }
        : d.serial === 'SCSI-1'
          ? { kind: 'rejected', certificateNumber: 'CW-000102', words: 'found a PDF document at byte 1,048,576' }
          : { kind: 'not-picked', reason: 'erased and certified, but not in the sample of its lot' },
    );
    expect(asked).toEqual(['/dev/sdb', '/dev/sdc', '/dev/vda']);
    expect(lines).toContain('validate: skip /dev/sda: /dev/sda carries the running system (boot_medium)');
    expect(lines).toContain('validate SATA-1: approved (/dev/sdb, certificate CW-000101): every sector holds zeros');
    expect(lines).toContain('validate SCSI-1: rejected (/dev/sdc, certificate CW-000102): found a PDF document at byte 1,048,576');
    expect(lines).toContain('validate VIRTIO-1: not picked: erased and certified, but not in the sample of its lot');
    expect(lines.find((l) => l.startsWith('validate /dev/vdb: not picked'))).toMatch(/no serial number[^\n]*nothing was read/);
    expect(summary).toEqual({ approved: 1, rejected: 1, notPicked: 2 });
    expect(validateExitCode(summary)).toBe(3);
  });

  it('says which drives it asks about before the first one is looked up or read', async () => {
    const order: string[] = [];
    const lines: string[] = [];
    await validateAttachedDrives(
      {
        drives: async () => drives,
        guard,
        validate: async (d) => {
          order.push(`read ${d.device}`);
          return { kind: 'approved', certificateNumber: 'CW-1', words: 'ok' };
        },
      },
      (line) => {
        lines.push(line);
        order.push(line);
      },
    );
    const lookup = order.findIndex((l) => l.startsWith('validate: looking up 3 drive(s) with the cloud: SATA-1 (/dev/sdb), SCSI-1 (/dev/sdc), VIRTIO-1 (/dev/vda)'));
    expect(lookup).toBeGreaterThanOrEqual(0);
    expect(lookup).toBeLessThan(order.findIndex((l) => l.startsWith('read ')));
  });

  it('fails closed: a drive whose lookup or read fails is not counted as validated, and the line says why', async () => {
    const { lines, summary } = await run(async () => {
      throw new Error('the gateway did not answer (connect ECONNREFUSED 10.0.2.100:8787)');
    });
    expect(lines).toContain('validate SATA-1: not picked: the validation stopped: the gateway did not answer (connect ECONNREFUSED 10.0.2.100:8787)');
    expect(summary).toEqual({ approved: 0, rejected: 0, notPicked: 4 });
    expect(lines.at(-1)).toBe('validate: finished: 0 approved, 0 rejected, 4 not picked or not read');
    expect(validateExitCode(summary)).toBe(0);
  });
});
