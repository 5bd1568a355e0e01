import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudClient, type CloudClient } from '../../engine-agent/src/adapters/cloud-client.js';
import { validatePickedDrive } from '../../engine-agent/src/validate/validate-picked.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../../engine-agent/test/support/loop.js';
import { startStack, wipeResultBody } from '../support/stack.js';

type Stack = Awaited<ReturnType<typeof startStack>>;
const MiB = 1024 * 1024;

/**
 * Issue 29 (5): the validate mode knows only the drive's serial. It asks the cloud (through a
 * real gateway and cloud, started from their binaries) whether the drive was picked and what its
 * method left, reads it on a loop device against that, and reports; a drive not picked, or
 * validated already, is refused without a byte read.
 */
describe.skipIf(Boolean(loopSkipReason))('validating a picked drive by its serial, agent → gateway → cloud', () => {
  let stack: Stack;
  let cloud: CloudClient;
  let work: string;
  const serial = (drive: number) => wipeResultBody('x', drive).drive_serial;

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Acme Refurb');
    await stack.cli('admin', 'create-user', '--account', account.id, '--email', 'admin@acme.test', '--password', 'correct horse battery', '--role', 'admin');
    const token = (await stack.cli('admin', 'mint-device-token', '--account', account.id, '--customer', 'Northwind Bank', '--lot', 'LOT-3')).token as string;
    // Every drive of the lot picked: the account's rate at 100 %, set by its admin.
    const login = await fetch(`${stack.cloud.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@acme.test', password: 'correct horse battery' }),
      redirect: 'manual',
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
    const csrf = ((await (await fetch(`${stack.cloud.url}/app/api/me`, { headers: { cookie } })).json()) as { csrf_token: string }).csrf_token;
    const rate = await fetch(`${stack.cloud.url}/app/api/validation/rate`, {
      method: 'PUT',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ rate_percent: 100 }),
    });
    expect(rate.status).toBe(200);
    cloud = createCloudClient({ baseUrl: stack.gateway.url, token });
    const checkin = await cloud.call('checkin');
    if (!checkin.ok) throw new Error(JSON.stringify(checkin.error));
    const jobId = checkin.value.job_id;
    const wipe = async (drive: number, extra: object) => expect((await cloud.call('wipeResult', wipeResultBody(jobId, drive, extra) as never)).ok).toBe(true);
    await wipe(0, { wipe_method: 'VSITR (7 passes)', technique: 'IEEE 2883 Clear, overwrite through the write path', passes_completed: 7 });
    await wipe(1, { wipe_method: 'NIST 800-88 R2 Clear', technique: 'Overwrite, single pass with verification', passes_completed: 1 });
    work = makeWorkDir('validate-picked-');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (work) removeDir(work);
  });

  it('reads a VSITR drive against its last pass (0xAA) and approves it; asked again, it is refused as validated', async () => {
    const drive = loopWith(work, 'vsitr.img', Buffer.alloc(8 * MiB, 0xaa));
    try {
      const progress: number[] = [];
      const outcome = await validatePickedDrive({ cloud, onProgress: (done) => progress.push(done) }, { device: drive.device, serial: serial(0) });
      expect(outcome).toMatchObject({ kind: 'validated', result: 'approved', reported: true, expected: 'the pattern 0xAA', reason: null, certificateNumber: expect.stringMatching(/^CW-\d{6}$/) });
      expect(progress.at(-1)).toBe(8 * MiB);
      const again = await validatePickedDrive({ cloud }, { device: drive.device, serial: serial(0) });
      expect(again).toMatchObject({ kind: 'already_validated', validation: 'approved', reason: expect.stringContaining('already validated: approved') });
    } finally {
      drive.cleanup();
    }
  });

  it('rejects a Clear drive with a PDF written after its erase, naming it, and the cloud records the rejection', async () => {
    const drive = loopWith(work, 'clear.img', Buffer.alloc(8 * MiB));
    const fd = openSync(drive.file, 'r+');
    writeSync(fd, Buffer.from('%PDF-1.7\n%customer invoice\n', 'latin1'), 0, undefined, 5 * MiB + 4096);
    fsyncSync(fd);
    closeSync(fd);
    try {
      const outcome = await validatePickedDrive({ cloud }, { device: drive.device, serial: serial(1) });
      expect(outcome).toMatchObject({ kind: 'validated', result: 'rejected', reported: true, expected: 'zeros', reason: 'found a PDF document at byte 5,246,976' });
      expect((await cloud.call('validationPick', { drive_serial: serial(1) }))).toMatchObject({ ok: true, value: { picked: true, validation: 'rejected' } });
    } finally {
      drive.cleanup();
    }
  });

  it('refuses a drive this account never erased without reading it', async () => {
    // The device does not exist: a read would throw, so a refusal proves nothing was read.
    const outcome = await validatePickedDrive({ cloud }, { device: '/dev/erasure-no-such-drive', serial: 'NEVER-ERASED-1' });
    expect(outcome).toEqual({ kind: 'not_picked', reason: expect.stringContaining('No certified erasure of drive NEVER-ERASED-1') });
  });

  it('says the cloud could not be asked when the token is refused', async () => {
    const stranger = createCloudClient({ baseUrl: stack.gateway.url, token: 'not-a-token' });
    const outcome = await validatePickedDrive({ cloud: stranger }, { device: '/dev/erasure-no-such-drive', serial: serial(0) });
    expect(outcome).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('Could not ask the cloud') });
  });
});
