import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudClient } from '../../engine-agent/src/adapters/cloud-client.js';
import { validateAndReport } from '../../engine-agent/src/validate/report-validation.js';
import { attachLoop, detachLoop, loopSkipReason } from '../../engine-agent/test/support/loop.js';
import { startStack, wipeResultBody } from '../support/stack.js';

type Stack = Awaited<ReturnType<typeof startStack>>;
const MiB = 1024 * 1024;
const AGENT_BIN = new URL('../../engine-agent/bin/erasure-agent.js', import.meta.url).pathname;

/**
 * Issue 29 (5) end to end: a lot of 20 drives through a real gateway and cloud (started from
 * their binaries) gets one drive picked at 5 %; the agent's validate reader reads that drive (a
 * loop device with a file written after its erase) and reports through the gateway; the cloud
 * rejects the original wipe and the public verify answer says the certificate is not valid.
 */
describe.skipIf(Boolean(loopSkipReason))('validation of a picked drive, agent → gateway → cloud', () => {
  let stack: Stack;
  let token: string;
  let cookie: string;
  let work: string;

  beforeAll(async () => {
    stack = await startStack();
    const account = await stack.cli('admin', 'create-account', '--name', 'Acme Refurb');
    await stack.cli('admin', 'create-user', '--account', account.id, '--email', 'admin@acme.test', '--password', 'correct horse battery', '--role', 'admin');
    token = (await stack.cli('admin', 'mint-device-token', '--account', account.id, '--customer', 'Northwind Bank', '--lot', 'LOT-9')).token;
    const post = (path: string, body?: unknown) =>
      fetch(`${stack.gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const jobId = ((await (await post('/api/checkin')).json()) as { job_id: string }).job_id;
    for (let drive = 0; drive < 20; drive += 1) expect((await post('/api/wipe_result', wipeResultBody(jobId, drive))).status).toBe(201);
    const login = await fetch(`${stack.cloud.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@acme.test', password: 'correct horse battery' }),
      redirect: 'manual',
    });
    cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
    work = mkdtempSync('/var/tmp/validate-e2e-');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('reads the picked drive, reports it rejected naming the file, and the certificate no longer verifies', async () => {
    const list = (await (await fetch(`${stack.cloud.url}/app/api/validation`, { headers: { cookie } })).json()) as {
      samples: { certificate_number: string; certificate_id: string; drive_serial: string }[];
    };
    expect(list.samples).toHaveLength(1);
    const picked = list.samples[0]!;
    const file = join(work, 'picked.img');
    writeFileSync(file, Buffer.alloc(8 * MiB));
    // A file written after the erase, through the host's view of the drive.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.from('%PDF-1.7\n%customer invoice\n', 'latin1'), 0, undefined, 2 * MiB);
    fsyncSync(fd);
    closeSync(fd);
    const device = attachLoop(file);
    const tokenFile = join(work, 'device-token');
    writeFileSync(tokenFile, token);
    // The boot image's validate mode: the agent binary, as the GRUB entry would start it.
    const agent = (...extra: string[]) =>
      spawnSync(process.execPath, [AGENT_BIN, 'validate', '--device', device, '--certificate', picked.certificate_number, '--serial', picked.drive_serial, '--json', ...extra], {
        encoding: 'utf8',
        env: { ...process.env, ERASURE_GATEWAY_URL: stack.gateway.url, ERASURE_DEVICE_TOKEN_FILE: tokenFile, DATA_DIR: join(work, 'agent') },
      });
    try {
      const first = agent('--expect', 'zeros');
      expect(first.status, first.stderr).toBe(3);
      expect(JSON.parse(first.stdout)).toMatchObject({ result: 'rejected', reason: 'found a PDF document at byte 2,097,152', reported: true });
      // A second, separate validation of the same drive does not overturn the first.
      const again = agent();
      expect(again.status).toBe(2);
      expect(again.stderr).toContain('already reported');
      // Through the agent's own call too (the kiosk's path): the same cloud answer.
      const cloud = createCloudClient({ baseUrl: stack.gateway.url, token });
      const drive = { device, certificateNumber: picked.certificate_number, driveSerial: picked.drive_serial, expected: { kind: 'zeros' } as const };
      expect((await validateAndReport({ cloud }, drive)).report).toMatchObject({ ok: false, error: { kind: 'status', status: 409 } });
    } finally {
      detachLoop(device);
    }
    const verify = (await (await fetch(`${stack.cloud.url}/certificates/${picked.certificate_id}/verify`)).json()) as Record<string, unknown>;
    expect(verify).toMatchObject({ valid: false, validation: 'rejected', reason: 'found a PDF document at byte 2,097,152' });
  });
});
