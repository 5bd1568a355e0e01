import { describe, expect, it } from 'vitest';
import { agentState } from '../store/test-fixtures.js';
import { formatBytes, formatDuration, formatMemory, formatMinutes, sessionLabel } from '../format.js';
import { confirmationOf, driveRows, selectableDevices } from './drives/drive-rows.js';
import { jobLine, powerWarning, progressRows, runHeadline } from './erase/erase-view.js';
import { deliveryNotice, resultSummaries } from './erase/result-view.js';
import { LAYOUT_CODES, escapeStreak, missingKeys } from './hardware-tests/keyboard-layout.js';
import { detectedResults, TEST_IDS } from './hardware-tests/test-catalog.js';
import { clockText, gateOf, healthAttemptText, plainReason } from './locked/gate.js';
import { machineFacts } from './machine/machine-facts.js';

const ssd = {
  device: '/sim/a.img',
  model: 'SIM SSD',
  serial: 'S1',
  size_bytes: 64_000_000,
  media_type: 'SSD' as const,
  transport: 'sata',
  internal: true,
  plan: { ok: true as const, method: 'overwrite-1', label: 'NIST 800-88 R2 Clear', category: 'Clear' as const, technique: 'Overwrite, 1 pass, verified', expected_minutes: 1, duration_source: 'estimate' as const, fully_sanitized: true, warnings: ['ATA security is frozen: firmware erase unavailable'] },
};
const usb = { ...ssd, device: '/dev/sdz', model: undefined, internal: false, plan: { ok: false as const, reason: 'behind a USB bridge: firmware commands refused' } };

describe('the boot gate', () => {
  it('stays locked until the agent says unlocked, and never unlocks without a snapshot', () => {
    expect(gateOf(undefined).state).toBe('checking');
    expect(gateOf(agentState({ locked: true, boot: { phase: 'verify' } }))).toMatchObject({ state: 'checking', text: 'Checking this device’s licence…' });
    expect(gateOf(agentState({ locked: true, boot: { phase: 'unlocked' } })).state).toBe('checking');
    expect(gateOf(agentState())).toEqual({ state: 'unlocked', account: 'Acme Refurb' });
  });

  it('shows a denial in plain words with the reason code kept', () => {
    const sut = gateOf(agentState({ locked: true, boot: { phase: 'denied', reason: 'revoked' } }));
    expect(sut).toMatchObject({ state: 'denied', reason: 'revoked' });
    expect(sut.state === 'denied' && sut.text).toMatch(/revoked/);
    expect(plainReason('quota_exceeded')).toMatch(/no erasures left/);
  });

  it('says an unreachable gateway once, in plain words with what to do, without the raw reason or Wi-Fi', () => {
    const sut = plainReason('gateway unreachable after 3 attempts: gateway unreachable: fetch failed');
    expect(sut).toMatch(/cannot be reached.*network cable/);
    expect(sut).not.toMatch(/fetch failed|Wi-?Fi/i);
  });

  it('says a refused licence (401) means the licence file on the stick is missing, wrong or damaged', () => {
    expect(plainReason('unauthorized (401)')).toMatch(/did not accept this device’s licence.*missing, wrong or damaged/);
  });

  it('keeps an unknown reason out of the sentence (it is under Details)', () => {
    expect(plainReason('something new')).not.toMatch(/something new/);
  });

  it('states the clock as read, and whether it was synchronized', () => {
    const now = new Date('2026-11-26T06:12:30Z');
    expect(clockText(true, now)).toBe('2026-11-26 06:12 UTC, synchronized with a time server');
    expect(clockText(false, now)).toMatch(/NOT synchronized/);
    expect(clockText(undefined, now)).toMatch(/not checked/);
  });
});

describe('the health attempts on the connecting screen', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it('says which attempt runs, why the last failed and when the next starts', () => {
    expect(healthAttemptText({ phase: 'health', attempt: 1, max_attempts: 3 }, now)).toBe('Attempt 1 of 3 — trying now.');
    const waiting = { phase: 'health' as const, attempt: 2, max_attempts: 3, last_error: 'gateway unreachable: fetch failed', next_attempt_at: '2026-11-22T12:00:03.200Z' };
    expect(healthAttemptText(waiting, now)).toBe('Attempt 2 of 3 — the last one failed: gateway unreachable: fetch failed — next try in 4 s.');
    expect(healthAttemptText(waiting, now + 5000)).toMatch(/trying now\.$/);
    expect(healthAttemptText({ phase: 'verify' }, now)).toBeUndefined();
    expect(healthAttemptText(undefined, now)).toBeUndefined();
  });
});

describe('the drives view', () => {
  it('shows method, duration and warnings from the agent’s plan, and only selectable planned drives', () => {
    const [a, b] = driveRows(agentState({ drives: [ssd, usb], selected: ['/sim/a.img'] }));
    expect(a).toMatchObject({ title: 'SIM SSD', selected: true, selectable: true, method: 'NIST 800-88 R2 Clear — Overwrite, 1 pass, verified', duration: 'about 1 min (estimate for 64.0 MB SSD)' });
    expect(a?.facts).toBe('64.0 MB · SSD · SATA · S/N S1');
    expect(a?.warnings).toEqual(['ATA security is frozen: firmware erase unavailable']);
    expect(b).toMatchObject({ title: '/dev/sdz', selectable: false, refusal: 'behind a USB bridge: firmware commands refused' });
    expect(b?.facts).toMatch(/external/);
  });

  it('estimates a small drive in seconds, not a constant minute', () => {
    const small = { ...ssd, plan: { ...ssd.plan, expected_minutes: 15 / 60 } };
    expect(driveRows(agentState({ drives: [small] }))[0]?.duration).toBe('about 15 s (estimate for 64.0 MB SSD)');
  });

  it('marks a drive this boot already erased with the time and its certificate number', () => {
    const done = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j', completed_at: '2026-11-26T10:42:00', delivered: true, certificate_status: 'complete', certificate_number: 'CW-000012' };
    const [a] = driveRows(agentState({ drives: [ssd], results: [done] }));
    expect(a?.erasedBefore).toBe('Erased at 10:42 · CW-000012');
    expect(driveRows(agentState({ drives: [ssd], results: [{ ...done, erased: false }] }))[0]?.erasedBefore).toBeUndefined();
  });

  it('marks a drive an earlier run of this boot erased, not only the last run', () => {
    const earlier = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j1', completed_at: '2026-11-26T09:15:00', delivered: true, certificate_status: 'complete', certificate_number: 'CW-000007' };
    const last = { ...earlier, device: '/sim/b.img', job_id: 'j2', completed_at: '2026-11-26T10:42:00', certificate_number: 'CW-000012' };
    const rows = driveRows(agentState({ drives: [ssd, { ...ssd, device: '/sim/b.img' }], results: [last], erased_earlier: [earlier] }));
    expect(rows.map((r) => r.erasedBefore)).toEqual(['Erased at 09:15 · CW-000007', 'Erased at 10:42 · CW-000012']);
  });

  it('selects all: every drive with a plan, none when the agent allows no selection', () => {
    expect(selectableDevices(agentState({ drives: [ssd, usb, { ...ssd, device: '/sim/b.img' }] }))).toEqual(['/sim/a.img', '/sim/b.img']);
    expect(selectableDevices(agentState({ drives: [ssd], can: { ...agentState().can, select: false } }))).toEqual([]);
  });

  it('marks a plan that leaves hidden areas as not a full sanitization', () => {
    const hpa = { ...ssd, plan: { ...ssd.plan, fully_sanitized: false, warnings: [] } };
    expect(driveRows(agentState({ drives: [hpa] }))[0]?.warnings[0]).toMatch(/Hidden areas/);
  });

  it('says in plain words a drive is through a USB bridge, with the bridge and the fallback behind Details', () => {
    const connection = { summary: 'through USB bridge (ASMedia ASM2362)', details: ['Connected through: ASMedia ASM2362 USB bridge (174c:2362); firmware erase not passed through: …', 'USB ids 174c:2362'] };
    expect(driveRows(agentState({ drives: [{ ...usb, connection }] }))[0]?.connection).toEqual(connection);
    expect(driveRows(agentState({ drives: [ssd] }))[0]?.connection).toBeUndefined();
  });

  it('every drive the agent sees has a row: the erasable one, a refused one with its reason, the boot medium, and each physical disk behind a RAID virtual disk', () => {
    const boot = { ...ssd, device: '/dev/sdb', model: 'SanDisk Cruzer', serial: 'STICK-01', internal: false, plan: { ok: false as const, reason: 'boot medium: never erased' } };
    const hidden = [
      { device: '/dev/bus/0 (megaraid,0)', model: 'ST6000NM0115-1YZ110', serial: 'ZAD2C11G', size_bytes: 6_001_175_126_016, reason: 'behind a RAID virtual disk: switch the controller to JBOD/HBA mode to erase it as a physical drive' },
      { device: '/dev/bus/0 (megaraid,1)', model: 'WD4000FYYX', serial: 'WD-1', reason: 'behind a RAID virtual disk: switch the controller to JBOD/HBA mode to erase it as a physical drive' },
    ];
    const vd = { ...ssd, device: '/dev/sda', model: 'MR9361-16i', serial: 'VD-0', connection: { summary: 'behind RAID controller (MegaRAID), virtual disk', details: ['RAID virtual disk (MegaRAID) spanning …'], hidden } };
    const rows = driveRows(agentState({ drives: [vd, usb, boot] }));
    expect(rows.map((r) => [r.device, r.selectable, r.refusal])).toEqual([
      ['/dev/sda', true, undefined],
      ['/dev/bus/0 (megaraid,0)', false, hidden[0]!.reason],
      ['/dev/bus/0 (megaraid,1)', false, hidden[1]!.reason],
      ['/dev/sdz', false, 'behind a USB bridge: firmware commands refused'],
      ['/dev/sdb', false, 'boot medium: never erased'],
    ]);
    expect(rows[1]).toMatchObject({ title: 'ST6000NM0115-1YZ110', facts: '6.0 TB · S/N ZAD2C11G · physical disk behind the RAID virtual disk above', selected: false });
    expect(rows[2]?.facts).toBe('S/N WD-1 · physical disk behind the RAID virtual disk above');
  });

  it('nothing is selectable while the agent forbids selection', () => {
    expect(driveRows(agentState({ drives: [ssd], can: { ...agentState().can, select: false } }))[0]?.selectable).toBe(false);
  });

  it('lets the operator submit only the agent’s phrase, and only when the agent allows confirm', () => {
    const snap = agentState({ selected: ['/a', '/b'], confirmation: { phrase: 'ERASE 2 DRIVES', confirmed: false }, can: { ...agentState().can, confirm: true } });
    expect(confirmationOf(snap, ' erase 2 drives ').canSubmit).toBe(true);
    expect(confirmationOf(snap, 'ERASE').canSubmit).toBe(false);
    expect(confirmationOf({ ...snap, can: { ...snap.can, confirm: false } }, 'ERASE 2 DRIVES').canSubmit).toBe(false);
  });
});

describe('the erase view', () => {
  const running = agentState({ drives: [ssd], selected: ['/sim/a.img'], run: { status: 'running', phase: 'erase' } });

  it('shows stage, pass n of N, bytes, rate, elapsed and time left for each selected drive', () => {
    const [row] = progressRows(running, { '/sim/a.img': { device: '/sim/a.img', stage: 'write', pass: 1, passes: 3, bytes_done: 32_000_000, bytes_total: 64_000_000, percent: 50, bytes_per_second: 200_000_000, elapsed_seconds: 20, eta_seconds: 125 } });
    expect(row).toEqual({ device: '/sim/a.img', title: 'SIM SSD · a.img', tone: 'running', stage: 'Writing — pass 1 of 3', percent: 50, bytes: '32.0 MB of 64.0 MB', rate: '200 MB/s', elapsed: '20 s', eta: '2 min 05 s', canCancel: false, cancelNote: undefined });
    expect(progressRows(running, {})[0]).toMatchObject({ stage: 'Waiting to start', tone: 'waiting' });
  });

  it('offers a Cancel only where the agent allows one, and a firmware erase says it cannot be stopped instead', () => {
    const writing = { device: '/sim/a.img', stage: 'write' as const, pass: 1, bytes_done: 1, bytes_total: 64_000_000 };
    const allowed = agentState({ ...running, run: { ...running.run, cancel: { '/sim/a.img': { can_cancel: true } } } });
    expect(progressRows(allowed, { '/sim/a.img': writing })[0]).toMatchObject({ canCancel: true, cancelNote: undefined });
    const note = 'The drive is erasing itself (firmware erase): this cannot be stopped once started. It finishes on its own.';
    const firmware = agentState({ ...running, run: { ...running.run, cancel: { '/sim/a.img': { can_cancel: false, note } } } });
    expect(progressRows(firmware, { '/sim/a.img': { ...writing, stage: 'firmware', pass: 0 } })[0]).toMatchObject({ canCancel: false, cancelNote: note, stage: 'Drive erase command running' });
    const stopping = agentState({ ...running, run: { ...running.run, cancel: { '/sim/a.img': { can_cancel: false, stopping: true } } } });
    expect(progressRows(stopping, { '/sim/a.img': writing })[0]).toMatchObject({ canCancel: false, cancelNote: 'Stopping…' });
  });

  it('shows a cancelled drive as Cancelled, not as a failure', () => {
    const [row] = progressRows(running, { '/sim/a.img': { device: '/sim/a.img', stage: 'write', pass: 1, bytes_done: 1, bytes_total: 64_000_000, outcome: 'cancelled' } });
    expect(row).toMatchObject({ tone: 'cancelled', stage: 'Cancelled', canCancel: false });
  });

  it('warns before a shut down only while results wait to be sent', () => {
    expect(powerWarning(agentState({ power: { pending_results: 0 } }))).toBeUndefined();
    expect(powerWarning(agentState({ power: { pending_results: 2 } }))).toMatch(/^2 results are not sent to the erasure service yet\./);
  });

  it('says whether the results waiting are lost by a shut down or restart: in memory, or saved on disk', () => {
    expect(powerWarning(agentState({ power: { pending_results: 2, kept_in: 'memory' } }), 'restart')).toBe('2 results are not sent to the erasure service yet. This machine keeps them only in memory: restarting it loses them. Restart anyway?');
    expect(powerWarning(agentState({ power: { pending_results: 1, kept_in: 'disk' } }), 'shutdown')).toBe("1 result is not sent to the erasure service yet. It is saved on this machine's disk and sent when it next starts with the erasure service reachable. Shut down anyway?");
    // Never "if this machine keeps them only in memory": the technician is not asked to know.
    for (const kept_in of ['disk', 'memory', undefined] as const) expect(powerWarning(agentState({ power: { pending_results: 2, ...(kept_in ? { kept_in } : {}) } }))).not.toMatch(/\bif\b/i);
  });

  it('shows a finished drive by its outcome while others run, not "Verifying 100 %, 0 s left"', () => {
    const [row] = progressRows(running, { '/sim/a.img': { device: '/sim/a.img', stage: 'verify', pass: 0, passes: 1, bytes_done: 64_000_000, bytes_total: 64_000_000, percent: 100, elapsed_seconds: 40, eta_seconds: 0, outcome: 'erased' } });
    expect(row).toMatchObject({ tone: 'ok', stage: 'Erased and verified', percent: 100, bytes: '', rate: '–', eta: '–', elapsed: '40 s' });
  });

  it('sums the job up: drives finished, elapsed, and the time left of the slowest drive', () => {
    const two = agentState({ drives: [ssd], selected: ['/sim/a.img', '/sim/b.img'], run: { status: 'running', phase: 'erase' } });
    const base = { stage: 'write' as const, pass: 1, bytes_done: 0, bytes_total: 1 };
    expect(jobLine(two, { '/sim/a.img': { ...base, device: '/sim/a.img', elapsed_seconds: 30, eta_seconds: 0, outcome: 'erased' }, '/sim/b.img': { ...base, device: '/sim/b.img', elapsed_seconds: 31, eta_seconds: 95 } })).toBe('1 of 2 drives finished · 31 s elapsed · about 1 min 35 s left (slowest drive)');
    expect(jobLine(two, { '/sim/b.img': { ...base, device: '/sim/b.img', elapsed_seconds: 1, eta_seconds: 95 } })).toMatch(/time left not known yet$/);
  });

  it('headlines a run with a cancelled drive plainly, not as a run with problems', () => {
    const erased = { device: '/a', method: 'overwrite', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j-0', delivered: true };
    const cancelled = { ...erased, device: '/b', job_id: 'j-1', erased: false, failure_code: 'cancelled', passes: null };
    const sut = runHeadline(agentState({ run: { status: 'finished', phase: 'done', exit_code: 3 }, results: [cancelled, erased] }));
    expect(sut).toEqual({ tone: 'info', text: '1 drive cancelled: not erased and not certified. 1 drive erased and verified.' });
    const failed = { ...erased, device: '/c', erased: false, failure_code: 'verify_mismatch' };
    expect(runHeadline(agentState({ run: { status: 'finished', phase: 'done', exit_code: 3 }, results: [cancelled, failed] })).tone).toBe('bad');
  });

  it('tells the operator to set a drive aside for destruction when its result says destroy, and to review any other refused drive', () => {
    const refused = { device: '/dev/sdc', method: 'overwrite', erased: false, refused: true, passes: null, verification: 'Not erased: locked', job_id: 'j-1', delivered: true, failure_code: 'not_erased' };
    const [destroy, review] = resultSummaries(agentState({ results: [{ ...refused, disposition: 'destroy' as const }, { ...refused, device: '/dev/sdd', job_id: 'j-2', disposition: 'review' as const }] }));
    expect(destroy!.advice).toBe('The drive still holds its data and cannot be erased here: set it aside for destruction. See Details for why.');
    expect(review!.advice).toBe('The drive still holds its data. See Details for why, then erase it again or set it aside.');
  });

  it('headlines a check-in denial as blocked with nothing erased', () => {
    const sut = runHeadline(agentState({ run: { status: 'finished', phase: 'denied', exit_code: 2, reason: 'quota_exceeded' } }));
    expect(sut.tone).toBe('bad');
    expect(sut.text).toMatch(/^Erasure blocked: nothing was erased/);
    expect(runHeadline(agentState({ run: { status: 'finished', phase: 'done', exit_code: 0 } })).tone).toBe('ok');
  });

  it('headlines a run the erasure policy stopped in the agent’s words: the method and what is allowed instead', () => {
    const reason = "DoD 5220.22-M (3 passes) is not allowed by this device token's contract; allowed: NIST 800-88 R2 Clear (drive /dev/sda). Choose an allowed method on the Drives step.";
    expect(runHeadline(agentState({ run: { status: 'finished', phase: 'denied', exit_code: 2, reason } }))).toEqual({ tone: 'bad', text: `Erasure blocked: nothing was erased. ${reason}` });
  });

  it('shows an erased drive as erased, saved and sending, never as failed, with the internals only under Details', () => {
    const base = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'full read-back (O_DIRECT, fdatasync)', job_id: 'job_1-0', delivered: true, wipe_result_id: 'wr_1', certificate_status: 'pending' };
    const [ok, lost] = resultSummaries(agentState({ drives: [ssd], results: [base, { ...base, device: '/x', delivered: false, error: 'HTTP 503' }] }));
    expect(ok).toMatchObject({ tone: 'ok', title: 'SIM SSD · S/N S1', verdict: 'Erased and verified', certificate: 'Certificate queued', advice: undefined });
    expect(ok?.details).toContainEqual(['Wipe result', 'wr_1']);
    expect(ok?.details).toContainEqual(['Verification', 'full read-back (O_DIRECT, fdatasync)']);
    expect([ok?.verdict, ok?.certificate].join(' ')).not.toMatch(/wr_|job|O_DIRECT/);
    expect(lost).toMatchObject({ tone: 'ok', verdict: 'Erased and verified · result saved, sending…', certificate: 'The certificate number follows once the result reaches the service.', advice: undefined });
  });

  it('says to keep the machine on while any result is not yet received, and nothing once all are', () => {
    const r = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j', delivered: false };
    expect(deliveryNotice(agentState({ results: [r, { ...r, device: '/sim/b.img', job_id: 'k' }] }))).toMatch(/^2 results are saved on this machine.*Keep the machine on until they are sent/);
    expect(deliveryNotice(agentState({ results: [{ ...r, delivered: true }] }))).toBeUndefined();
  });

  it('shows a result the service refused for good as erased without a certificate, not as still sending', () => {
    const r = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j', delivered: false, delivery_refused: true, error: 'HTTP 409' };
    const snap = agentState({ results: [r] });
    expect(resultSummaries(snap)[0]).toMatchObject({ tone: 'ok', verdict: 'Erased and verified · the service refused the result', certificate: 'No certificate: the erasure service refused this result' });
    expect(deliveryNotice(snap)).toBeUndefined();
  });

  it('shows an erased drive graded F (do not resell) as erased and verified, with its grade, reasons, and the numbers under Details', () => {
    const health = { grade: 'F' as const, label: 'do not resell', reasons: [{ grade: 'F', text: 'the drive fails its own SMART health check' }], facts: [{ label: 'Write speed', value: '90–120 MB/s, median 110 MB/s over 64 regions; 0 write error(s)' }] };
    const r = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j', delivered: true, certificate_status: 'complete', health };
    const [row] = resultSummaries(agentState({ results: [r] }));
    expect(row).toMatchObject({ tone: 'ok', verdict: 'Erased and verified', health: { grade: 'F', headline: 'Health grade F: do not resell', reasons: ['the drive fails its own SMART health check'] } });
    expect(row?.details).toContainEqual(['Write speed', '90–120 MB/s, median 110 MB/s over 64 regions; 0 write error(s)']);
    // A drive that was not erased has no grade to show, whatever the agent sent.
    expect(resultSummaries(agentState({ results: [{ ...r, erased: false, failure_code: 'io_error' }] }))[0]?.health).toBeUndefined();
  });

  it('shows a drive that was not erased as failed, with what to do', () => {
    const failed = { device: '/sim/a.img', method: 'overwrite-1', erased: false, refused: false, failure_code: 'verify_mismatch', passes: 1, verification: 'mismatch', job_id: 'j', delivered: true };
    expect(resultSummaries(agentState({ results: [failed] }))[0]).toMatchObject({ tone: 'bad', verdict: 'Erase failed — the drive is not certified', advice: expect.stringMatching(/Erase it again/) });
  });

  it('headlines erased drives whose results are still being sent as a success to keep on, not a failure', () => {
    const r = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j', delivered: false };
    const sut = runHeadline(agentState({ run: { status: 'finished', phase: 'failed', exit_code: 3, reason: '1 wipe result(s) not delivered' }, results: [r] }));
    expect(sut.tone).toBe('info');
    expect(sut.text).toMatch(/erased and verified.*keep the machine on/);
  });

  it('shows the certificate number once the agent looked it up, with the status until issued', () => {
    const base = { device: '/sim/a.img', method: 'overwrite-1', erased: true, refused: false, passes: 1, verification: 'ok', job_id: 'j-0', delivered: true, wipe_result_id: 'wr_1' };
    const rows = resultSummaries(
      agentState({
        results: [
          { ...base, certificate_status: 'pending', certificate_number: 'CW-000007' },
          { ...base, device: '/b', certificate_status: 'generating', certificate_number: 'CW-000008' },
          { ...base, device: '/c', certificate_status: 'complete', certificate_number: 'CW-000009' },
          { ...base, device: '/d', certificate_status: null, certificate_number: null },
        ],
      }),
    );
    expect(rows.map((r) => r.certificate)).toEqual(['Certificate CW-000007 — queued', 'Certificate CW-000008 — being generated', 'Certificate CW-000009 issued', 'Not certifiable: no certificate']);
  });
});

describe('hardware tests', () => {
  it('covers every wire id of the spec exactly once', () => {
    expect([...TEST_IDS].sort()).toEqual(['audio', 'battery', 'bluetooth', 'display', 'keyboard', 'touchscreen', 'usb_ports', 'webcam', 'wifi_adapter']);
  });

  it('reads detection-only results off the fingerprint', () => {
    expect(detectedResults({ wifi_adapters: [{ name: 'wlan0' }], bluetooth: [{ name: 'hci0' }], batteries: [{ health_pct: 80 }] } as never)).toEqual({
      wifi_adapter: { status: 'detected', detail: 'wlan0' },
      bluetooth: { status: 'detected', detail: 'hci0' },
    });
    expect(detectedResults({} as never)).toMatchObject({ wifi_adapter: { status: 'not_applicable' }, bluetooth: { status: 'not_applicable' }, battery: { status: 'not_applicable' } });
    expect(detectedResults(undefined)).toEqual({});
  });

  it('lists the keys not pressed, and ends capture on the third Escape in a row only', () => {
    expect(missingKeys(new Set(LAYOUT_CODES))).toEqual([]);
    expect(missingKeys(new Set(LAYOUT_CODES.filter((c) => c !== 'KeyQ')))).toEqual(['Q']);
    expect(new Set(LAYOUT_CODES).size).toBe(LAYOUT_CODES.length);
    let streak = 0;
    for (const code of ['Escape', 'Escape', 'KeyA', 'Escape', 'Escape']) streak = escapeStreak(streak, code);
    expect(streak).toBe(2);
    expect(escapeStreak(streak, 'Escape')).toBe(3);
  });
});

describe('machine summary and formatting', () => {
  it('puts identity first and leaves out missing sections', () => {
    const sut = machineFacts({ system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'B5QVN32' }, memory: { total_bytes: 16e9 }, batteries: [{ health_pct: 91, cycle_count: 212 }] } as never);
    expect(sut.slice(0, 2)).toEqual([
      ['Model', 'Dell Inc. Latitude 7490'],
      ['Serial number', 'B5QVN32'],
    ]);
    expect(sut).toContainEqual(['Battery', '91% health, 212 cycles']);
    expect(sut.map(([l]) => l)).not.toContain('TPM');
  });

  it('shows memory in binary GiB, as the web application does', () => {
    const sut = machineFacts({ memory: { total_bytes: 16 * 1024 ** 3 } } as never);
    expect(sut).toContainEqual(['Memory', '16 GiB']);
    expect(formatMemory(17_179_869_184)).toBe('16 GiB');
    expect(formatMemory(512 * 1024 ** 2)).toBe('512 MiB');
  });

  it('labels the boot record id as a session time, never like a certificate number', () => {
    expect(sessionLabel('CW-20261126-061203')).toBe('Session of 26 Nov 2026, 06:12 UTC');
    expect(sessionLabel('CW-20261126-061203')).not.toMatch(/CW-/);
  });

  it('formats sizes, durations and estimates in plain words', () => {
    expect(formatBytes(512_110_190_592)).toBe('512 GB');
    expect(formatBytes(undefined)).toBe('unknown size');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(7_620)).toBe('2 h 07 min');
    expect(formatMinutes(0.5)).toBe('about 30 s');
    expect(formatMinutes(180)).toBe('about 3.0 h');
  });
});
