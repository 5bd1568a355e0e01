import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resultOutbox } from '../../src/adapters/result-outbox.js';
import { simulatedServe, until, intent, type ServeSut } from '../support/serve-env.js';

type Sut = ServeSut;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});


/** Unlocks, selects both simulated drives, confirms and starts; the erase is slowed so it can be cancelled. */
async function startErase(s: Sut): Promise<string[]> {
  await s.controller.bootUp();
  const devices = s.controller.snapshot().drives.map((d) => d.device);
  expect((await intent(s, { type: 'select', devices })).status).toBe(200);
  expect((await intent(s, { type: 'confirm', text: `ERASE ${devices.length} DRIVES` })).status).toBe(200);
  expect((await intent(s, { type: 'start' })).status).toBe(200);
  return devices;
}

const finished = (s: Sut) => () => s.controller.snapshot().run.status === 'finished';

describe('serve API: cancel during an erase', () => {
  it('cancels one drive mid-erase: it is reported cancelled (never certified), the other drive is erased', async () => {
    sut = await simulatedServe({ env: { ERASURE_SIMULATE_MBPS: '4' } });
    const s = sut;
    const [big, small] = await startErase(s); // 64 MiB and 32 MiB: the big one still writes when cancelled
    await until(() => s.controller.snapshot().progress[big!]?.stage === 'write' && s.controller.snapshot().run.cancel?.[big!]?.can_cancel === true, 30_000);
    const r = await intent(s, { type: 'cancel_drive', device: big });
    expect(r.status).toBe(200);
    expect(r.json.state?.run.cancel?.[big!]).toEqual({ can_cancel: false, stopping: true });
    // A second cancel of the same drive is refused: it is already stopping.
    expect(await intent(s, { type: 'cancel_drive', device: big })).toMatchObject({ status: 409, json: { error: `${big} is already stopping` } });
    await until(finished(s), 60_000);
    const end = s.controller.snapshot();
    expect(end.progress[big!]?.outcome).toBe('cancelled');
    expect(end.progress[small!]?.outcome).toBe('erased');
    const byDevice = new Map(end.results.map((r) => [r.device, r]));
    expect(byDevice.get(big!)).toMatchObject({ erased: false, failure_code: 'cancelled', delivered: true, certificate_status: null });
    expect(byDevice.get(small!)).toMatchObject({ erased: true, delivered: true, certificate_status: 'pending' });
    const sent = s.gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body.wipe_status).sort();
    expect(sent).toEqual(['cancelled', 'completed']);
    // The cancelled drive stays ticked for another go; the erased one does not.
    expect(end.selected).toEqual([big]);
    // Nothing is cancellable once the run ended.
    expect(end.can.cancel_all).toBe(false);
    expect(end.run.cancel).toBeUndefined();
  }, 90_000);

  it('cancel all stops every drive; each is reported cancelled', async () => {
    sut = await simulatedServe({ env: { ERASURE_SIMULATE_MBPS: '2' } });
    const s = sut;
    await startErase(s);
    await until(() => s.controller.snapshot().can.cancel_all === true && s.controller.snapshot().run.phase === 'erase', 30_000);
    expect((await intent(s, { type: 'cancel_all' })).status).toBe(200);
    await until(finished(s), 60_000);
    const end = s.controller.snapshot();
    expect(end.results.map((r) => r.failure_code)).toEqual(['cancelled', 'cancelled']);
    expect(s.gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => c.body.wipe_status)).toEqual(['cancelled', 'cancelled']);
  }, 90_000);

  it('refuses a cancel with no erase running, and of a drive not in the erase', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    expect(await intent(sut, { type: 'cancel_all' })).toMatchObject({ status: 409, json: { error: 'no erase is running' } });
    expect(await intent(sut, { type: 'cancel_drive', device: '/dev/sda' })).toMatchObject({ status: 409, json: { error: 'no erase is running' } });
    expect((await intent(sut, { type: 'cancel_drive' })).status).toBe(400);
  });
});

/** A `systemctl` on PATH that records its calls: a simulated machine must never run it. */
function recordingSystemctl(then = ''): { calls: string; path: string; restore: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-systemctl-'));
  const calls = join(dir, 'calls');
  writeFileSync(join(dir, 'systemctl'), `#!/bin/sh\necho "$@" >> ${calls}\n${then}\n`);
  chmodSync(join(dir, 'systemctl'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${dir}:${path ?? ''}`;
  return { calls, path: join(dir, 'systemctl'), restore: () => void (process.env.PATH = path) };
}

/** Stops the test unless the agent's runner finds the fake `systemctl` first (a real one would power off this host). */
async function runsTheFake(s: Sut, fake: string): Promise<void> {
  const found = await s.env.run('sh', ['-c', 'command -v systemctl'], { timeoutMs: 5000 });
  if (found.stdout.trim() !== fake) throw new Error(`the runner would run ${found.stdout.trim()}, not the fake systemctl: refusing to continue`);
}

describe('serve API: shut down and restart', () => {
  it('on a simulated machine says what it would do and never runs systemctl', async () => {
    const fake = recordingSystemctl();
    try {
      sut = await simulatedServe();
      await sut.controller.bootUp();
      const r = await intent(sut, { type: 'shutdown' });
      expect(r.status).toBe(200);
      expect(r.json.state?.power?.last).toBe('Simulated machine: it would shut down now (systemctl poweroff --no-block); nothing was run.');
      const again = await intent(sut, { type: 'restart' });
      expect(again.json.state?.power?.last).toContain('it would restart now (systemctl reboot --no-block)');
      expect(existsSync(fake.calls)).toBe(false);
    } finally {
      fake.restore();
    }
  });

  it('on a real machine shuts down and restarts through systemctl, without waiting for the jobs', async () => {
    const fake = recordingSystemctl();
    try {
      // Not simulated, and never booted: no drive is probed; the power intents are allowed on a locked screen too.
      sut = await simulatedServe({ env: { ERASURE_SIMULATE: '0' } });
      await runsTheFake(sut, fake.path); // never the host's own systemctl
      const r = await intent(sut, { type: 'shutdown' });
      expect(r.status).toBe(200);
      expect(r.json.state?.power?.last).toBe('The machine is shutting down.');
      expect((await intent(sut, { type: 'restart' })).json.state?.power?.last).toBe('The machine is restarting.');
      expect(readFileSync(fake.calls, 'utf8')).toBe('poweroff --no-block\nreboot --no-block\n');
    } finally {
      fake.restore();
    }
  });

  it('says so when systemctl fails, and claims nothing', async () => {
    const fake = recordingSystemctl('echo "Failed to connect to bus" >&2; exit 1');
    try {
      sut = await simulatedServe({ env: { ERASURE_SIMULATE: '0' } });
      await runsTheFake(sut, fake.path);
      expect(await intent(sut, { type: 'shutdown' })).toMatchObject({ status: 409, json: { error: 'systemctl poweroff --no-block failed: Failed to connect to bus' } });
      expect(sut.controller.snapshot().power?.last).toBeUndefined();
    } finally {
      fake.restore();
    }
  });

  it('with a result still waiting in the outbox, asks for a second confirmation (pending_ok)', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    await resultOutbox(sut.env.config.DATA_DIR).keep('6f1c2b1e-0000-4000-8000-000000000001-0', { job_id: '6f1c2b1e-0000-4000-8000-000000000001-0' });
    const first = await intent(sut, { type: 'shutdown' });
    expect(first).toMatchObject({ status: 409, json: { error: '1 result(s) are still waiting to be sent: confirm again to shut down anyway' } });
    expect(sut.controller.snapshot().power).toMatchObject({ pending_results: 1, kept_in: expect.stringMatching(/^(disk|memory)$/) });
    const second = await intent(sut, { type: 'shutdown', pending_ok: true });
    expect(second.status).toBe(200);
    expect(second.json.state?.power?.last).toContain('would shut down');
  });

  it('is refused while an erase runs', async () => {
    sut = await simulatedServe({ env: { ERASURE_SIMULATE_MBPS: '4' } });
    const s = sut;
    await startErase(s);
    expect(s.controller.snapshot().can).toMatchObject({ shutdown: false, restart: false });
    expect(await intent(s, { type: 'shutdown', pending_ok: true })).toMatchObject({ status: 409, json: { error: 'an erase is running: the machine cannot shut down now' } });
    expect((await intent(s, { type: 'cancel_all' })).status).toBe(200);
    await until(finished(s), 60_000);
  }, 90_000);
});
