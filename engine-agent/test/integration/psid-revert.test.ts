import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../src/adapters/runner.js';
import { psidRevert } from '../../src/erase/psid-revert.js';
import { fakeRunner } from '../support/fake-runner.js';
import { workspaceDir } from '../support/fixtures.js';

const sed = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'sed', name), 'utf8');
const PSID = 'QX7R2KD9M4T8W1ZP6B3N5C0V9F2H7J4L';
const MARK = Buffer.from('CUSTOMER DATA BEFORE THE REVERT ');

/** A file standing in for the drive's media: the fake revert really scrambles it, as a key change does. */
function media(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'psid-media-')), 'drive.img');
  writeFileSync(file, Buffer.concat(Array.from({ length: 2048 }, () => MARK)));
  return file;
}

describe('PSID revert through nvme-cli (fake nvme on PATH, real fixtures)', () => {
  it('reverts, asks the drive again, finds it unlocked, and reports a crypto erase without the PSID in it', async () => {
    const file = media();
    const { run, calls } = fakeRunner({
      nvme: [
        { match: '^sed revert --psid /dev/nvme0n1$', stdout: sed('nvme-sed-revert-psid-prompts.txt'), erase: { device: file, bytes: 65536, fill: 'random' } },
        { match: '^sed discover -v /dev/nvme0n1$', stdout: sed('nvme-sed-discover-not-enabled.DERIVED.txt') },
      ],
    });
    const out = await psidRevert(run, '/dev/nvme0n1', 'nvme', PSID);
    expect(out).toMatchObject({ ok: true, command: 'nvme sed revert --psid /dev/nvme0n1', words: 'PSID revert: the drive discarded its media encryption key (a cryptographic erase) and is now self-encrypting (Opal 2, locking off)' });
    // The PSID went to the tool on stdin, never on its command line, and is nowhere in the outcome.
    expect(calls()).toEqual([['nvme', 'sed', 'revert', '--psid', '/dev/nvme0n1'], ['nvme', 'sed', 'discover', '-v', '/dev/nvme0n1']]);
    expect(JSON.stringify(out)).not.toContain(PSID);
    // The data path is real: none of the customer data is left where the revert acted.
    expect(readFileSync(file).subarray(0, 65536).includes(MARK)).toBe(false);
  });

  it('a wrong PSID: the tool\'s own error, in plain words, and the drive untouched', async () => {
    const file = media();
    const { run } = fakeRunner({ nvme: [{ match: '^sed revert --psid', stdout: sed('nvme-sed-revert-psid-prompts.txt'), stderr: sed('nvme-sed-revert-psid-wrong.stderr.txt'), exit: 1 }] });
    const out = await psidRevert(run, '/dev/nvme0n1', 'nvme', PSID);
    expect(out).toEqual({ ok: false, code: 'refused', disposition: 'review', command: 'nvme sed revert --psid /dev/nvme0n1', reason: 'the drive refused the PSID (Error: incorrect password): check the 32 characters on the label and type them again' });
    expect(readFileSync(file).includes(MARK)).toBe(true);
  });

  it('a revert that reports success but leaves the drive locked is failed, for review, with the reason', async () => {
    const { run } = fakeRunner({
      nvme: [
        { match: '^sed revert --psid', stdout: sed('nvme-sed-revert-psid-prompts.txt') },
        { match: '^sed discover', stdout: sed('nvme-sed-discover-locked.DERIVED.txt') },
      ],
    });
    const out = await psidRevert(run, '/dev/nvme0n1', 'nvme', PSID);
    expect(out).toMatchObject({ ok: false, code: 'still-locked', disposition: 'review' });
    expect(out.ok ? '' : out.reason).toMatch(/^the PSID revert reported success but the drive is still locked \(self-encrypting \(Opal 2, locked\)\)/);
  });

  it('never sends a PSID that is not 32 capitals and digits', async () => {
    const { run, calls } = fakeRunner({ nvme: [] });
    expect(await psidRevert(run, '/dev/nvme0n1', 'nvme', 'QX7R-2KD9')).toMatchObject({ ok: false, code: 'bad-psid' });
    expect(calls()).toEqual([]);
  });
});

describe('PSID revert of a SATA drive', () => {
  it('runs sedutil-cli when the image carries it; NOT_AUTHORIZED is a wrong PSID', async () => {
    const { run } = fakeRunner({ 'sedutil-cli': [{ match: '^--yesIreallywanttoERASEALLmydatausingthePSID \\S+ /dev/sdb$', stderr: sed('sedutil-psid-revert-not-authorized.stderr.txt'), exit: 1 }] });
    const out = await psidRevert(run, '/dev/sdb', 'ata-scsi', PSID);
    expect(out).toMatchObject({ ok: false, code: 'refused', command: 'sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID ‹PSID› /dev/sdb' });
    expect(out.ok ? '' : out.reason).toBe('the drive refused the PSID (method status code NOT_AUTHORIZED): check the 32 characters on the label and type them again');
  });

  it('reverts with sedutil-cli and re-queries it unlocked', async () => {
    const { run } = fakeRunner({
      'sedutil-cli': [
        { match: '^--yesIreallywanttoERASEALLmydatausingthePSID', stdout: sed('sedutil-psid-revert-success.DERIVED.txt') },
        { match: '^--query /dev/sdb$', stdout: sed('sedutil-query-sata-opal2-reverted.DERIVED.txt') },
      ],
    });
    expect(await psidRevert(run, '/dev/sdb', 'ata-scsi', PSID)).toMatchObject({ ok: true, after: { kind: 'tcg', locked: false } });
  });

  it('without sedutil-cli says the drive needs a PSID revert on a machine with sedutil-cli, and the step', async () => {
    const run = createRunner({ env: { PATH: mkdtempSync(join(tmpdir(), 'no-tools-')) } });
    const out = await psidRevert(run, '/dev/sdb', 'ata-scsi', PSID);
    expect(out).toMatchObject({ ok: false, code: 'no-tool', disposition: 'review' });
    expect(out.ok ? '' : out.reason).toMatch(/^this drive needs a PSID revert on a machine with sedutil-cli: this image does not carry it\. On a computer with sedutil-cli, run: sedutil-cli --yesIreallywanttoERASEALLmydatausingthePSID/);
  });
});
