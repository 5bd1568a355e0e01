import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../src/adapters/runner.js';
import { probeSelfEncryption } from '../../src/probes/self-encryption.js';
import { describeSelfEncryption } from '../../src/probes/tcg-discovery.js';
import { fakeRunner } from '../support/fake-runner.js';
import { workspaceDir } from '../support/fixtures.js';

const sed = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'sed', name), 'utf8');

describe('self-encryption probe through the real tools (fakes on PATH)', () => {
  it('asks nvme sed discover -v for an NVMe drive and reads a locked Opal 2 drive', async () => {
    const { run, calls } = fakeRunner({ nvme: [{ match: '^sed discover -v /dev/nvme0n1$', stdout: sed('nvme-sed-discover-locked.DERIVED.txt') }] });
    const se = await probeSelfEncryption(run, '/dev/nvme0n1', 'nvme');
    expect(describeSelfEncryption(se)).toBe('self-encrypting (Opal 2, locked)');
    expect(calls()).toEqual([['nvme', 'sed', 'discover', '-v', '/dev/nvme0n1']]);
  });

  it('asks sedutil-cli --query for a SATA drive', async () => {
    const { run } = fakeRunner({ 'sedutil-cli': [{ match: '^--query /dev/sdb$', stdout: sed('sedutil-query-samsung-pm810-sata-opal1-locked.txt') }] });
    expect(describeSelfEncryption(await probeSelfEncryption(run, '/dev/sdb', 'ata-scsi'))).toBe('self-encrypting (Opal 1, locked)');
  });

  it('says a drive without Opal is not self-encrypting (nvme-cli: "does not support SED Opal", exit 255)', async () => {
    const { run } = fakeRunner({ nvme: [{ match: '^sed discover', stderr: sed('nvme-sed-discover-no-opal.stderr.txt'), exit: 255 }] });
    expect(await probeSelfEncryption(run, '/dev/nvme0n1', 'nvme')).toEqual({ kind: 'none', tool: 'nvme sed discover' });
  });

  it('answers "unknown: no tool" when the image has no sedutil-cli, never an error', async () => {
    const run = createRunner({ env: { PATH: mkdtempSync(join(tmpdir(), 'no-tools-')) } });
    const se = await probeSelfEncryption(run, '/dev/sda', 'ata-scsi');
    expect(se).toEqual({ kind: 'unknown', reason: 'no tool' });
    expect(describeSelfEncryption(se)).toBe('self-encryption unknown: no tool');
  });
});

/** The image as built: sg3-utils' sg_raw, no sedutil-cli (not packaged in Debian). */
const noSedutil = { without: ['sedutil-cli'] };
const SG_RAW_ARGS = ['-R', '-r', '2048', '/dev/sdb', 'a2', '01', '00', '01', '00', '00', '00', '00', '08', '00', '00', '00'];

describe('self-encryption of a SATA or SAS drive through sg_raw (SECURITY PROTOCOL IN, level 0 discovery) when the image has no sedutil-cli', () => {
  it('sends SECURITY PROTOCOL IN, protocol 1, ComID 1, 2048 bytes, read-only, and reads a locked Opal 2 SATA drive', async () => {
    const { run, calls } = fakeRunner({ sg_raw: [{ match: `^${SG_RAW_ARGS.join(' ')}$`, stderr: sed('sg-raw-level0-sata-opal2-locked.DERIVED.stderr.txt') }] }, noSedutil);
    const se = await probeSelfEncryption(run, '/dev/sdb', 'ata-scsi');
    expect(se).toMatchObject({ kind: 'tcg', tool: 'sg_raw security protocol in', family: 'Opal 2', locked: true });
    expect(describeSelfEncryption(se)).toBe('self-encrypting (Opal 2, locked)');
    expect(calls()).toEqual([['sg_raw', ...SG_RAW_ARGS]]);
  });

  it('reads an unlocked Opal 2 drive and a locked Enterprise SAS drive', async () => {
    const unlocked = fakeRunner({ sg_raw: [{ match: '/dev/sdb a2 01 00 01', stderr: sed('sg-raw-level0-sata-opal2-unlocked.DERIVED.stderr.txt') }] }, noSedutil);
    expect(describeSelfEncryption(await probeSelfEncryption(unlocked.run, '/dev/sdb', 'ata-scsi'))).toBe('self-encrypting (Opal 2, unlocked)');
    const sas = fakeRunner({ sg_raw: [{ match: '/dev/sdc a2 01 00 01', stderr: sed('sg-raw-level0-sas-enterprise-locked.DERIVED.stderr.txt') }] }, noSedutil);
    expect(describeSelfEncryption(await probeSelfEncryption(sas.run, '/dev/sdc', 'ata-scsi'))).toBe('self-encrypting (Enterprise, locked)');
  });

  it('a drive that answers ILLEGAL REQUEST (invalid opcode, as QEMU\'s disks; invalid field in the CDB) is not self-encrypting, not "unknown"', async () => {
    for (const [fixture, exit] of [['sg-raw-invalid-opcode.DERIVED.stderr.txt', 9], ['sg-raw-invalid-field-in-cdb.DERIVED.stderr.txt', 5]] as const) {
      const { run } = fakeRunner({ sg_raw: [{ match: 'a2 01 00 01', stderr: sed(fixture), exit }] }, noSedutil);
      const se = await probeSelfEncryption(run, '/dev/sdb', 'ata-scsi');
      expect(se).toEqual({ kind: 'none', tool: 'sg_raw security protocol in' });
      expect(describeSelfEncryption(se)).toBeUndefined();
    }
  });

  it('another failure is "unknown" with what sg_raw said', async () => {
    const { run } = fakeRunner({ sg_raw: [{ match: 'a2', stderr: 'do_scsi_pt: Inappropriate ioctl for device\n', exit: 99 }] }, noSedutil);
    expect(await probeSelfEncryption(run, '/dev/sdb', 'ata-scsi')).toEqual({ kind: 'unknown', reason: 'sg_raw security protocol in gave no answer: do_scsi_pt: Inappropriate ioctl for device' });
  });

  it('asks sedutil-cli first where the image carries it, and never sg_raw then', async () => {
    const { run, calls } = fakeRunner({
      'sedutil-cli': [{ match: '^--query /dev/sdb$', stdout: sed('sedutil-query-samsung-pm810-sata-opal1-locked.txt') }],
      sg_raw: [{ match: 'a2', stderr: sed('sg-raw-level0-sata-opal2-unlocked.DERIVED.stderr.txt') }],
    });
    expect(await probeSelfEncryption(run, '/dev/sdb', 'ata-scsi')).toMatchObject({ tool: 'sedutil-cli --query', family: 'Opal 1' });
    expect(calls().map((c) => c[0])).toEqual(['sedutil-cli']);
  });
});
