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
