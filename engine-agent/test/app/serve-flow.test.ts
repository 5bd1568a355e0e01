import { AgentState, conforms, DriveProgress } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { listenLoopback } from '../../src/api/serve.js';
import { simulatedServe, until, intent, state, type ServeSut } from '../support/serve-env.js';
import { ipAddresses } from '../../src/probes/ip-addresses.js';

type Sut = ServeSut;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});


/** Reads an SSE stream with fetch until `done` says the collected events suffice. */
async function readEvents(url: string, done: (events: Array<{ event: string; data: unknown }>) => boolean) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events: Array<{ event: string; data: unknown }> = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? 'message';
      events.push({ event, data: JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? 'null') as unknown });
    }
    if (done(events)) break;
  }
  controller.abort();
  return events;
}

describe('serve API: boot gating', () => {
  it('starts locked and refuses every operator intent with 409 and the reason until verify allows', async () => {
    sut = await simulatedServe();
    const s = await state(sut);
    expect(s).toMatchObject({ locked: true, boot: { phase: 'starting' }, run: { status: 'idle' } });
    expect(s.can).toEqual({ refresh: false, select: false, confirm: false, start: false, set_test_result: false, set_notes: false, retry: false, cancel_all: false, shutdown: true, restart: true });
    for (const body of [{ type: 'start' }, { type: 'select', devices: [] }, { type: 'set_notes', notes: 'x' }, { type: 'set_test_result', id: 'keyboard', status: 'passed' }]) {
      const r = await intent(sut, body);
      expect(r.status).toBe(409);
      expect(r.json.error).toMatch(/^locked/);
    }
    expect(sut.gateway.calls).toEqual([]);
  });

  it('stays locked when verify denies, shows the reason, and never checks in', async () => {
    sut = await simulatedServe({ gateway: { verify: { allow: false, reason: 'quota_exceeded' } } });
    await sut.controller.bootUp();
    // The locked screen's facts ride along: this machine's addresses and the gateway it tries (issue 22 item 8).
    expect((await state(sut)).boot).toEqual({ phase: 'denied', reason: 'quota_exceeded', addresses: ipAddresses(), gateway_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/) });
    const r = await intent(sut, { type: 'start' });
    expect(r.status).toBe(409);
    expect(r.json.error).toContain('quota_exceeded');
    expect(sut.gateway.calls.map((c) => c.path)).toEqual(['/api/health', '/api/verify']);
  });

  it('rejects malformed intents with 400 before the controller sees them', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    for (const body of [{ type: 'erase_everything' }, { type: 'select', devices: 'all' }, { type: 'set_test_result', id: 'floppy', status: 'passed' }, { type: 'set_test_result', id: 'audio', status: 'ok' }, { type: 'start', force: true }]) {
      expect((await intent(sut, body)).status).toBe(400);
    }
  });
});

describe('serve API: select, typed confirmation, start, live progress and results', () => {
  it('erases the selected simulated drives and streams state and per-drive progress over SSE', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const unlocked = await state(sut);
    expect(unlocked).toMatchObject({ locked: false, boot: { phase: 'unlocked', account: 'Acme Refurb', asset_id: 'asset_1' } });
    expect(unlocked.drives).toHaveLength(2);
    for (const d of unlocked.drives) {
      expect(d.plan).toMatchObject({ ok: true, method: 'overwrite', category: 'Clear', label: 'NIST 800-88 R2 Clear' });
      expect(d.plan.ok && typeof d.plan.expected_minutes).toBe('number');
      expect(d.plan.ok && Array.isArray(d.plan.warnings)).toBe(true);
    }
    const devices = unlocked.drives.map((d) => d.device);

    expect((await intent(sut, { type: 'select', devices: ['/dev/sda'] })).status).toBe(409);
    const selected = await intent(sut, { type: 'select', devices });
    expect(selected.json.state?.confirmation).toEqual({ phrase: 'ERASE 2 DRIVES', confirmed: false });
    const early = await intent(sut, { type: 'start' });
    expect(early).toMatchObject({ status: 409, json: { error: 'select drives and type the confirmation first' } });
    const wrong = await intent(sut, { type: 'confirm', text: 'yes' });
    expect(wrong).toMatchObject({ status: 409, json: { error: 'type "ERASE 2 DRIVES" to confirm' } });
    expect((await intent(sut, { type: 'confirm', text: ' erase 2 drives ' })).json.state?.can.start).toBe(true);

    const url = await listenLoopback(sut.app, { HOST: '127.0.0.1', PORT: 0 });
    const stream = readEvents(`${url}/api/events`, (ev) => ev.some((e) => e.event === 'state' && (e.data as AgentState).run.status === 'finished'));
    await until(() => sut!.controller.listenerCount('change') > 0);
    const started = await intent(sut, { type: 'start' });
    expect(started.status).toBe(200);
    expect((await intent(sut, { type: 'start' })).status).toBe(409); // a second start while running
    const events = await stream;

    expect(events[0]?.event).toBe('state');
    // Every event is exactly what the shared contract says the kiosk receives.
    for (const e of events) expect(e.event === 'state' ? conforms(AgentState, e.data) : conforms(DriveProgress, e.data)).toBe(true);
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data as DriveProgress);
    for (const device of devices) {
      const mine = progress.filter((p) => p.device === device);
      // Pass n of N, with the time since the drive started and the time left for the whole drive.
      expect(mine.some((p) => p.stage === 'write' && p.pass === 1 && p.passes === 1 && p.elapsed_seconds !== undefined)).toBe(true);
      const lastVerify = mine.filter((p) => p.stage === 'verify').at(-1);
      expect(lastVerify).toMatchObject({ percent: 100, eta_seconds: 0 });
      expect(lastVerify?.bytes_done).toBe(lastVerify?.bytes_total);
    }
    const final = events.at(-1)?.data as AgentState;
    expect(final.run).toMatchObject({ status: 'finished', phase: 'done', exit_code: 0, job: { drives: 2, finished: 2, eta_seconds: 0 } });
    // A finished drive's row says how it ended.
    expect(Object.values(final.progress).map((p) => p.outcome)).toEqual(['erased', 'erased']);
    expect(final.results.map((r) => [r.device, r.erased, r.delivered, r.certificate_status])).toEqual(devices.map((d) => [d, true, true, 'pending']));
    expect(final.results.every((r) => /^[0-9a-f]{64}$/.test(r.verification_hash ?? ''))).toBe(true);
    expect(final.confirmation.confirmed).toBe(false); // the next run needs a new confirmation

    // Certificate numbers arrive after delivery: looked up until complete (fake: pending, then complete), then no more.
    const s = sut;
    await until(() => s.controller.snapshot().results.every((r) => r.certificate_status === 'complete'));
    // The drives finish in either order (erased at once): the fake numbers its results as they arrive.
    expect(s.controller.snapshot().results.map((r) => [r.certificate_number, r.certificate_status]).sort()).toEqual([
      ['CW-000001', 'complete'],
      ['CW-000002', 'complete'],
    ]);
    await new Promise((r) => setTimeout(r, 100)); // longer than the test's lookup delays: a third lookup would show
    const paths = sut.gateway.calls.map((c) => c.path);
    const lookups = ['/api/certificates/lookup', '/api/certificates/lookup'];
    // The erasure policy is read once the boot is unlocked, and again right before the check-in (issue 29).
    expect(paths).toEqual(['/api/health', '/api/verify', '/api/record', '/api/erasure_policy', '/api/erasure_policy', '/api/checkin', '/api/wipe_result', '/api/wipe_result', ...lookups]);
    expect(sut.gateway.calls.at(-1)?.body).toEqual({ job_ids: ['6f1c2b1e-0000-4000-8000-000000000001-0', '6f1c2b1e-0000-4000-8000-000000000001-1'] });
    expect(sut.gateway.calls.filter((c) => c.path === '/api/wipe_result').map((c) => [c.body.job_id, c.body.wipe_status]).sort()).toEqual([
      ['6f1c2b1e-0000-4000-8000-000000000001-0', 'completed'],
      ['6f1c2b1e-0000-4000-8000-000000000001-1', 'completed'],
    ]);
  }, 60_000);
});

describe('serve API: drives erased earlier in this boot', () => {
  const runOnce = async (s: Sut, devices: string[]) => {
    await intent(s, { type: 'select', devices });
    await intent(s, { type: 'confirm', text: devices.length === 1 ? 'ERASE 1 DRIVE' : `ERASE ${devices.length} DRIVES` });
    expect((await intent(s, { type: 'start' })).status).toBe(200);
    await until(() => s.controller.snapshot().run.status === 'finished');
  };

  it('keeps every run’s erased drives, not only the last run’s, so the Drives step marks them all', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const [first, second] = (await state(sut)).drives.map((d) => d.device);
    expect((await state(sut)).erased_earlier).toBeUndefined();
    await runOnce(sut, [first!]);
    await runOnce(sut, [second!]);
    const after = await state(sut);
    expect(conforms(AgentState, after)).toBe(true);
    expect(after.results.map((r) => r.device)).toEqual([second]);
    expect(after.erased_earlier?.map((r) => [r.device, r.erased, r.delivered])).toEqual([[first, true, true]]);
    // Its certificate number follows there too, as it does on the results.
    const s = sut;
    await until(() => s.controller.snapshot().erased_earlier?.[0]?.certificate_number !== undefined);
  });

  it('starts the next run with the drives the last run erased unticked, and without its "it would shut down now"', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    const devices = (await state(sut)).drives.map((d) => d.device);
    await runOnce(sut, devices);
    // Erased and certified: nothing of the last run stays ticked for the next one.
    expect((await state(sut)).selected).toEqual([]);
    expect((await state(sut)).confirmation.phrase).toBeNull();
    expect((await intent(sut, { type: 'shutdown' })).status).toBe(200);
    expect((await state(sut)).power?.last).toMatch(/it would shut down now/);
    await runOnce(sut, [devices[0]!]);
    expect((await state(sut)).power?.last).toBeUndefined();
  });

  it('plans a simulated drive at its simulated speed, so the first time left is not a real disk’s second', async () => {
    sut = await simulatedServe({ env: { ERASURE_SIMULATE_MBPS: '2' } });
    await sut.controller.bootUp();
    // 64 MiB and 32 MiB, each written and read back at 2 MB/s.
    expect((await state(sut)).drives.map((d) => (d.plan.ok ? Math.round((d.plan.expected_minutes ?? 0) * 60) : undefined))).toEqual([68, 34]);
  });
});
